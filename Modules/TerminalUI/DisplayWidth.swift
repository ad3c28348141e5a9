/// Terminal column arithmetic: wide (CJK, emoji) characters take two columns, marks and controls none,
/// so cards stay aligned whatever text a payload carries.
public enum DisplayWidth {
    // Pairs rather than ClosedRange: a range of UInt32 needs a runtime conformance lookup at first use.
    private static let wideRanges: [(first: UInt32, last: UInt32)] = [
        (0x1100, 0x115F), (0x2E80, 0x303E), (0x3041, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA000, 0xA4CF),
        (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFF60), (0xFFE0, 0xFFE6), (0x1F300, 0x1F64F),
        (0x1F900, 0x1F9FF), (0x20000, 0x3FFFD),
    ]

    /// Columns one grapheme occupies.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark {
            return 0
        }
        if first.properties.isEmojiPresentation || wideRanges.contains(where: { $0.first <= value && value <= $0.last })
        {
            return 2
        }
        return 1
    }

    /// Columns a string occupies.
    public static func of(_ text: String) -> Int {
        // Printable ASCII is one column a byte; only other text needs graphemes and Unicode properties.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The longest prefix of `text` that fits in `width` columns, ending in "…" when something was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// Splits `text` into lines of at most `width` columns, at spaces where possible.
    public static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        if of(text) <= width { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if of(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for character in word {
                if of(line) + of(character) > width {
                    lines.append(line)
                    line = ""
                }
                line.append(character)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `rows` as aligned lines: every column but the last padded to its widest cell (in display columns), two
    /// spaces apart, so a table of ids and names lines up whatever script the names are in.
    public static func columns(_ rows: [[String]]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? of($0[column]) : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $0 == row.count - 1 ? $1 : pad($1, to: widths[$0]) }.joined(separator: "  ")
        }
    }

    /// `text` followed by spaces up to `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}
