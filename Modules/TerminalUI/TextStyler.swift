import Core

/// Turns a ``Style`` into ANSI escapes, or into nothing when colour is off (NO_COLOR, TERM=dumb, not a terminal).
public struct TextStyler: Sendable {
    /// Whether escapes are written at all.
    public let colors: Bool

    /// Creates a styler; prefer ``init(environment:isTerminal:noColorFlag:)`` in hosts.
    public init(colors: Bool) { self.colors = colors }

    /// Colour only on a terminal, and never when NO_COLOR is set and non-empty, TERM is dumb, or the user said so.
    public init(environment: [String: String], isTerminal: Bool, noColorFlag: Bool) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        self.colors = isTerminal && !noColorFlag && !noColor && environment["TERM"] != "dumb"
    }

    /// `text` wrapped in the escape for `style`.
    public func apply(_ style: Style, _ text: String) -> String {
        guard colors, !text.isEmpty else { return text }
        let code =
            switch style {
            case .plain: ""
            case .bold: "1"
            case .dim, .skeleton: "2"
            case .success: "32"
            case .warning: "33"
            case .error: "31"
            }
        return code.isEmpty ? text : "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
