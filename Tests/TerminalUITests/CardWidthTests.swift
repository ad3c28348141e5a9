import Core
import TerminalUI
import Testing

/// Cards whose names are in any script keep their right border in the card's last column.
@Suite struct CardWidthTests {
    static let block = Block(
        title: "𗀀𗀁 Tangut 寿司",
        rows: [
            Row("寿司 Sushi", value: "¥1,200"),
            Row("Love ❤\u{FE0F} ☺\u{FE0F}", value: "#\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3}"),
            Row("🕳 🐿 🌡 🖐", value: "🇸🇦"),
            Row("का कि की हिंदी"),
            Row("กำ ไทย", value: "น้ำ"),
            Row("a\u{200B}b\u{200C}c\u{2060}d", value: "x\u{E0041}\u{E007F}"),
            Row("مطعم البيك", value: "عُمَر"),
            Row("👨\u{200D}👩\u{200D}👧 ☝🏻 ⌚\u{FE0E}", value: "𛅰"),
        ])

    /// The padding pinned as text: each row's spaces were counted from wcwidth's widths (and, for ☝🏻 and ⌚︎,
    /// UTS #51's), not from DisplayWidth.
    @Test func goldenWithEveryScript() {
        let lines = CardRenderer.lines(for: Self.block, width: 40, styler: TextStyler(colors: false))
        #expect(
            lines == [
                "╭─ 𗀀𗀁 Tangut 寿司 ───────────────────╮",
                "│ 寿司 Sushi                    ¥1,200 │",
                "│ Love ❤\u{FE0F} ☺\u{FE0F}                      #\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3} │",
                "│ 🕳 🐿 🌡 🖐                           🇸🇦 │",
                "│ का कि की हिंदी                        │",
                "│ กำ ไทย                            น้ำ │",
                "│ a\u{200B}b\u{200C}c\u{2060}d                               x\u{E0041}\u{E007F} │",
                "│ مطعم البيك                       عُمَر │",
                "│ 👨\u{200D}👩\u{200D}👧 ☝🏻 ⌚\u{FE0E}                           𛅰 │",
                "╰──────────────────────────────────────╯",
            ])
    }

    /// Columns as wcwidth 0.7.0 and UTS #51 give them, written out by hand for the graphemes these cards use, so
    /// the layout is checked against something other than DisplayWidth: two for these, none for those, one else.
    static let twoColumns: Set<Character> = Set("寿司𗀀𗀁𗀂𗀃𗀄𗀅𗀆𗀇𗀈𗀉𗀊𗀋𗀌𗀍𗀎𗀏𗀐𗀑𗀒𗀓𗀔𛅰").union([
        "🇸🇦", "❤\u{FE0F}", "☺\u{FE0F}", "#\u{FE0F}\u{20E3}", "1\u{FE0F}\u{20E3}", "👨\u{200D}👩\u{200D}👧", "☝🏻",
        "🏳\u{FE0F}\u{200D}🌈", "का", "कि", "की", "हिं", "दी", "กำ", "น้ำ",
    ])
    static let noColumns: Set<Character> = ["\u{200B}", "\u{200C}", "\u{2060}"]

    static func referenceWidth(_ line: some StringProtocol) -> Int {
        line.reduce(0) { $0 + (twoColumns.contains($1) ? 2 : noColumns.contains($1) ? 0 : 1) }
    }

    /// At every width the card can take, wrapped and truncated, every line is the card's width with its border
    /// alone in the last column, by the hand-written widths and by DisplayWidth.
    @Test(arguments: [16, 17, 20, 24, 31, 40, 64])
    func everyRightBorderIsInTheLastColumn(width: Int) {
        let long = Block(
            title: "عُمَر 🏳\u{FE0F}\u{200D}🌈 #\u{FE0F}\u{20E3} 𗀀𗀁𗀂 กำ का",
            rows: Self.block.rows + [
                Row("𗀀𗀁𗀂𗀃𗀄𗀅𗀆𗀇𗀈𗀉𗀊𗀋𗀌𗀍𗀎𗀏𗀐𗀑𗀒𗀓𗀔", value: "SAR 1"),
                Row("กำกำกำกำกำกำกำกำกำกำกำกำกำกำกำกำกำกำกำกำ ❤\u{FE0F}❤\u{FE0F}❤\u{FE0F}❤\u{FE0F}❤\u{FE0F}"),
                Row("مُحَمَّد " + String(repeating: "काकि ", count: 8), value: "#\u{FE0F}\u{20E3}🐿🌡"),
            ])
        let lines = CardRenderer.lines(for: long, width: width, styler: TextStyler(colors: false))
        for (index, line) in lines.enumerated() {
            let border: Character = index == 0 ? "╮" : index == lines.count - 1 ? "╯" : "│"
            #expect(line.last == border, "line \(index) at \(width): \(line)")
            #expect(Self.referenceWidth(line.dropLast()) == width - 1, "line \(index) at \(width): \(line)")
            #expect(DisplayWidth.of(String(line.dropLast())) == width - 1, "line \(index) at \(width): \(line)")
        }
    }

    /// Controls never reach the painter: SafeText shows them as one-column stand-ins first, so they cannot move
    /// the cursor or count as nothing.
    @Test func controlsAreVisibleStandInsOfOneColumn() {
        let lines = CardRenderer.lines(
            for: Block(
                title: "\u{1B}[31mRed\u{7}",
                rows: [Row("nul\u{0} c1\u{85} bidi\u{202E}x\u{2028}", value: "del\u{7F}")]),
            width: 32, styler: TextStyler(colors: false))
        #expect(lines[0] == "╭─ ␛[31mRed␇ ──────────────────╮")
        #expect(lines[1] == "│ nul␀ c1\u{FFFD} bidi\u{FFFD}x\u{FFFD}        del␡ │")
        let unsafe = lines.joined().unicodeScalars.filter {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x2028, 0x202E].contains($0.value)
        }
        #expect(unsafe.isEmpty)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 32 })
    }
}
