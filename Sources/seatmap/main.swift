import SeatMapCLI
import Foundation

exit(SeatMapCLI.main(Array(CommandLine.arguments.dropFirst())))
