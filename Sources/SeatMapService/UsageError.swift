import SeatMapCore

/// A usage mistake: the command exits 2 (HTTP: 400) and says what to fix.
package struct UsageError: Error {
    package var message: String
    /// The message with its inputs as `{{name}}`, for an error raised
    /// where no face is known (each face says the inputs its own way).
    package var template: String?
    package init(message: String) { self.message = message }
    package init(template: String) {
        self.template = template
        message = Diagnostic.fill(template, CLIMessages.flag)
    }

    /// The message with its inputs said by `name` (as given when it had no template).
    package func naming(_ name: (String) -> String) -> String {
        template.map { Diagnostic.fill($0, name) } ?? message
    }
}
