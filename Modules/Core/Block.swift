/// How a row wants to look; the terminal decides whether colour is available.
public enum Style: String, Sendable, Hashable, Codable {
    /// Normal text.
    case plain
    /// Headlines inside a card.
    case bold
    /// Secondary detail.
    case dim
    /// Something good happened (paid, delivered).
    case success
    /// Needs attention (pending).
    case warning
    /// Something went wrong.
    case error
    /// Placeholder bars of a skeleton.
    case skeleton
}

/// One line of a card: label on the left, optional value aligned on the right.
public struct Row: Sendable, Equatable, Codable {
    /// The main text.
    public var text: String
    /// Right-aligned detail (a price, a time); empty for none.
    public var value: String
    /// How the row should look.
    public var style: Style

    /// Creates a row; `value` is shown right-aligned when the width allows.
    public init(_ text: String, value: String = "", style: Style = .plain) {
        (self.text, self.value, self.style) = (text, value, style)
    }
}

/// What a component draws into its slot: a titled card of rows. Pure data, so drawing is testable as text.
public struct Block: Sendable, Equatable, Codable {
    /// The card's title, drawn in the top border.
    public var title: String
    /// The card's content.
    public var rows: [Row]

    /// Creates a card.
    public init(title: String, rows: [Row]) {
        (self.title, self.rows) = (title, rows)
    }

    /// A placeholder card with `lines` grey bars, shown while loading so the layout does not jump.
    public static func skeleton(title: String, lines: Int = 2) -> Block {
        let widths = [18, 12, 15, 9]
        let rows = (0..<max(1, lines)).map { index in
            Row(String(repeating: "░", count: widths[index % widths.count]), style: .skeleton)
        }
        return Block(title: title, rows: rows)
    }

    /// True when every row is a skeleton bar.
    public var isSkeleton: Bool { !rows.isEmpty && rows.allSatisfy { $0.style == .skeleton } }
}
