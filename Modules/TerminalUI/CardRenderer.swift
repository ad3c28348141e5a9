import Core
import SafeText

/// Draws a ``Block`` as a box of exactly `width` columns: a pure function, so frames are pinned by golden tests.
public enum CardRenderer {
    /// The narrowest card drawn; narrower terminals get this width and wrap.
    public static let minimumWidth = 16

    /// The width a card is drawn at on a terminal `columns` wide: the terminal's, capped so cards stay readable
    /// on wide screens, never below ``minimumWidth``. Every screen uses this one rule.
    public static func width(forColumns columns: Int) -> Int { min(max(columns, minimumWidth), 64) }

    /// The card's lines, each `width` columns wide (with styles applied when the styler has colour). Every
    /// title and row comes from a squad's data, so control characters are shown visibly, never sent raw.
    public static func lines(for block: Block, width: Int, styler: TextStyler) -> [String] {
        let block = Block(
            title: SafeText.visible(block.title),
            rows: block.rows.map { Row(SafeText.visible($0.text), value: SafeText.visible($0.value), style: $0.style) })
        let width = max(width, minimumWidth)
        let inner = width - 4
        let title = DisplayWidth.truncate(block.title, to: inner - 2)
        let topFill = String(repeating: "─", count: max(0, width - 5 - DisplayWidth.of(title)))
        var lines = ["╭─ " + styler.apply(.bold, title) + " " + topFill + "╮"]
        for row in block.rows {
            for content in layout(row, inner: inner) {
                let styled = styler.apply(row.style, content.text)
                let value =
                    content.value.isEmpty ? "" : styler.apply(row.style == .plain ? .bold : row.style, content.value)
                let gap = String(
                    repeating: " ", count: inner - DisplayWidth.of(content.text) - DisplayWidth.of(content.value))
                lines.append("│ " + styled + gap + value + " │")
            }
        }
        lines.append("╰" + String(repeating: "─", count: width - 2) + "╯")
        return lines
    }

    /// Splits a row into lines: text and value side by side when they fit, else wrapped text then the value.
    private static func layout(_ row: Row, inner: Int) -> [(text: String, value: String)] {
        let valueWidth = DisplayWidth.of(row.value)
        if row.value.isEmpty {
            return DisplayWidth.wrap(row.text, to: inner).map { ($0, "") }
        }
        if DisplayWidth.of(row.text) + 1 + valueWidth <= inner {
            return [(row.text, row.value)]
        }
        let value = DisplayWidth.truncate(row.value, to: inner)
        return DisplayWidth.wrap(row.text, to: inner).map { ($0, "") } + [("", value)]
    }
}
