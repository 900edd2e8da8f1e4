import SeatMapCLI
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
// The stores and the HTTP service live in seatmap-serve (they link SQLite,
// libpq and libmicrohttpd, which a render's process does not load).
if SeatMapCLI.needsServeSide(arguments) { exit(SeatMapCLI.runServeSide(arguments)) }
exit(SeatMapCLI.main(arguments))
