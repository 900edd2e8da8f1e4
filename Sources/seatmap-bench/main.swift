import Foundation
import SeatMapBench

exit(Bench.main(Array(CommandLine.arguments.dropFirst())))
