import Foundation
import SeatMapCore
import SeatMapLayout

/// A usage mistake: the command exits 2 (HTTP: 400) and says what to fix.
package struct UsageError: Error {
    package var message: String
    package init(message: String) { self.message = message }
}
