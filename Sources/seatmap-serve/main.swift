import Foundation
import SeatMapServeCLI

exit(ServeCLI.main(Array(CommandLine.arguments.dropFirst())))
