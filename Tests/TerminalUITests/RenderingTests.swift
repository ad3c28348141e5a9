import Core
import TerminalUI
import Testing

@Suite struct RenderingTests {
    let block = Block(
        title: "Payment",
        rows: [
            Row("Visa •••• 4242", value: "SAR 45.50"),
            Row("Paid", style: .success),
            Row("A rather long note that must wrap onto more lines", style: .dim),
        ])

    @Test func goldenAt40Columns() {
        let lines = CardRenderer.lines(for: block, width: 40, styler: TextStyler(colors: false))
        #expect(
            lines.joined(separator: "\n") == """
                ╭─ Payment ────────────────────────────╮
                │ Visa •••• 4242             SAR 45.50 │
                │ Paid                                 │
                │ A rather long note that must wrap    │
                │ onto more lines                      │
                ╰──────────────────────────────────────╯
                """)
    }

    @Test func goldenAt24ColumnsWrapsTheValueUnderTheText() {
        let lines = CardRenderer.lines(for: block, width: 24, styler: TextStyler(colors: false))
        #expect(
            lines.joined(separator: "\n") == """
                ╭─ Payment ────────────╮
                │ Visa •••• 4242       │
                │            SAR 45.50 │
                │ Paid                 │
                │ A rather long note   │
                │ that must wrap onto  │
                │ more lines           │
                ╰──────────────────────╯
                """)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 24 })
    }

    @Test func goldenWithColour() {
        let lines = CardRenderer.lines(
            for: Block(title: "Eta", rows: [Row("Paid", value: "now", style: .success)]), width: 20,
            styler: TextStyler(colors: true))
        #expect(
            lines == [
                "╭─ \u{1B}[1mEta\u{1B}[0m ────────────╮",
                "│ \u{1B}[32mPaid\u{1B}[0m         \u{1B}[32mnow\u{1B}[0m │",
                "╰──────────────────╯",
            ])
    }

    @Test func skeletonIsDimBars() {
        let lines = CardRenderer.lines(
            for: .skeleton(title: "Eta", lines: 1), width: 24, styler: TextStyler(colors: false))
        #expect(lines[1] == "│ ░░░░░░░░░░░░░░░░░░   │")
    }

    @Test func wideCharactersCountTwoColumns() {
        #expect(DisplayWidth.of("寿司") == 4)
        #expect(DisplayWidth.of("🍕x") == 3)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        let lines = CardRenderer.lines(
            for: Block(title: "店", rows: [Row("寿司寿司寿司寿司寿司", value: "¥1,200")]), width: 20,
            styler: TextStyler(colors: false))
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 20 })
        #expect(DisplayWidth.truncate("寿司寿司", to: 5) == "寿司…")
    }

    @Test(arguments: [
        (["NO_COLOR": "1"], true, false, false), (["NO_COLOR": ""], true, false, true), ([:], false, false, false),
        (["TERM": "dumb"], true, false, false), ([:], true, true, false), (["TERM": "xterm"], true, false, true),
    ])
    func colourPolicy(environment: [String: String], isTerminal: Bool, flag: Bool, expected: Bool) {
        #expect(TextStyler(environment: environment, isTerminal: isTerminal, noColorFlag: flag).colors == expected)
    }
}

@Suite struct ColumnTests {
    @Test func columnsAlignByDisplayWidthAndTheLastIsNotPadded() {
        let lines = DisplayWidth.columns([
            ["ID", "MODULE", "ENDPOINT"], ["配達", "Location", "riders/{order}.json"], ["a", "b"],
        ])
        #expect(lines == ["ID    MODULE    ENDPOINT", "配達  Location  riders/{order}.json", "a     b"])
        #expect(DisplayWidth.columns([]) == [])
    }
}
