import Core
import Foundation
import Testing

@testable import TerminalUI

/// The width question against a model terminal (``TerminalModel``) that counts code points, as the terminals
/// that do not cluster graphemes do: asked, it says how it draws each disputed cluster, and cards measured with
/// its answers keep every border in their last column, in every script and cluster kind the issue names.
@Suite struct TerminalWidthTests {
    /// One row per kind: CJK, Tangut, VS16 emoji, keycaps, skin tones, text-default pictographs, spacing marks,
    /// zero-width characters, Arabic with harakat (and ZWJ sequences, flags, Thai, VS15).
    static let names = [
        "寿司 Sushi 𛅰", "𗀀𗀁 Tangut", "Love \u{2764}\u{FE0F} \u{263A}\u{FE0F}",
        "#\u{FE0F}\u{20E3} 1\u{FE0F}\u{20E3} keycaps",
        "☝🏻 ✌🏽 👍🏻 tones", "🕳 🐿 🌡 🖐 pictographs", "का कि की हिंदी", "กำ ไทย น้ำ",
        "a\u{200B}b\u{2060}c\u{2061}d x\u{E0041}\u{E007F}", "عُمَر مُحَمَّد", "مطعم البيك",
        "👨\u{200D}👩\u{200D}👧 🇸🇦 🍕 ⌚\u{FE0E}",
    ]

    static let block = Block(title: "Order 𗀀 ❤️", rows: names.map { Row($0, value: "SAR 9.50") })

    /// Asks `terminal` the question and reads what it said.
    func ask(_ terminal: inout TerminalModel) -> WidthProbe.Answers {
        terminal.feed(WidthProbe.question)
        var answers = WidthProbe.Answers()
        for reply in terminal.replies { answers.hear(reply) }
        return answers
    }

    /// The rows of a card on the model's screen whose right border is not in the card's last column.
    func misplaced(_ terminal: TerminalModel, width: Int) -> [String] {
        terminal.grid.enumerated().compactMap { index, cells in
            guard let first = cells.first, "╭│╰".contains(first) else { return nil }
            return "╮│╯".contains(cells[width - 1]) ? nil : terminal.lines[index]
        }
    }

    func draw(_ widths: ClusterWidths, on terminal: inout TerminalModel) {
        let lines = ClusterWidths.$current.withValue(widths) {
            CardRenderer.lines(for: Self.block, width: 64, styler: TextStyler(colors: false))
        }
        terminal.feed(lines.map { $0 + "\n" }.joined())
    }

    @Test func aCodePointTerminalSaysSoAndEveryBorderLandsInItsLastColumn() throws {
        var terminal = TerminalModel()
        let answers = ask(&terminal)
        #expect(answers.complete && answers.clusteringMode == 0 && !answers.turnedClusteringOn)
        let widths = answers.widths
        #expect(widths.answers[.emojiVS16] == 1 && widths.answers[.keycap] == 1, "\(widths)")
        #expect(widths.answers[.toneOnTextBase] == 3 && widths.answers[.zwjSequence] == 6, "\(widths)")
        #expect(Set(widths.differences).isSuperset(of: [.emojiVS16, .keycap, .toneOnTextBase, .spacingMark]))
        #expect(terminal.lines.allSatisfy { $0.isEmpty }, "the probes were erased: \(terminal.lines)")
        draw(widths, on: &terminal)
        #expect(terminal.lines.filter { $0.hasPrefix("│") }.count == Self.names.count)
        #expect(misplaced(terminal, width: 64).isEmpty, "\(misplaced(terminal, width: 64))")
        // Measured with Unicode's widths instead, the same terminal moves the borders: the test can tell.
        var unasked = TerminalModel()
        draw(.unicode, on: &unasked)
        #expect(misplaced(unasked, width: 64).count >= 4, "\(unasked.lines.joined(separator: "\n"))")
    }

    /// Mode 2027 off but known: the question turns it on, and the terminal then draws clusters as Unicode says,
    /// so nothing is measured otherwise.
    @Test func aTerminalThatCanClusterIsAskedToAndAgreesWithUnicode() {
        var terminal = TerminalModel(clustering: true)
        let answers = ask(&terminal)
        #expect(answers.complete && answers.clusteringMode == 2 && answers.turnedClusteringOn)
        #expect(terminal.clusteringOn)
        #expect(answers.widths.agreesWithUnicode, "\(answers.widths)")
        draw(answers.widths, on: &terminal)
        #expect(misplaced(terminal, width: 64).isEmpty)
    }

    /// Nothing said (or only device attributes, no positions): Unicode's widths, as before the question.
    @Test func aTerminalThatAnswersNothingKeepsUnicodesWidths() {
        var silent = TerminalModel(answers: false)
        let nothing = ask(&silent)
        #expect(!nothing.complete && nothing.widths == .unicode && nothing.widths.answers.isEmpty)
        var answers = WidthProbe.Answers()
        let attributes = answers.hear(Array("\u{1B}[?1;2c".utf8))
        #expect(attributes && answers.complete && answers.widths.answers.isEmpty)
        let late = answers.hear(Array("\u{1B}[5;1R".utf8))
        #expect(!late, "nothing is taken after the device attributes")
        var other = WidthProbe.Answers()
        let key = other.hear(Array("\u{1B}[A".utf8))
        #expect(!key, "a key is no answer")
    }

    /// The first frame is painted before the answers; once they are in, the painter paints over every row of
    /// it and the model's screen holds exactly the new frame, every border in place.
    @Test func thePainterPaintsTheFirstFrameThenPaintsItAgainWithTheAnswers() {
        final class Screen: Sendable {
            let terminal = Locked(TerminalModel(rows: 60))
        }
        let screen = Screen()
        var painter = FramePainter(
            width: 64, styler: TextStyler(colors: false), live: true, header: ["Order ❤️"], rows: { 60 },
            columns: { 80 }
        ) { text in screen.terminal.withLock { $0.feed(text) } }
        let slots = [SlotView(id: ComponentID(rawValue: "order"), block: Self.block)]
        painter.paintFirstFrame(slots)
        let answers = screen.terminal.withLock { terminal in ask(&terminal) }
        #expect(!misplaced(screen.terminal.withLock { $0 }, width: 64).isEmpty, "Unicode's widths misplace them")
        ClusterWidths.$current.withValue(answers.widths) { painter.paint(slots) }
        let terminal = screen.terminal.withLock { $0 }
        #expect(misplaced(terminal, width: 64).isEmpty, "\(terminal.lines.joined(separator: "\n"))")
        let expected = ClusterWidths.$current.withValue(answers.widths) { painter.frame(slots) }
        #expect(
            terminal.lines.prefix { !$0.isEmpty } == expected.split(separator: "\n").map(String.init)[...],
            "nothing of the first frame is left:\n\(terminal.lines.joined(separator: "\n"))")
        #expect(terminal.lines.drop { !$0.isEmpty }.allSatisfy { $0.isEmpty })
    }

    /// A line wider than the window takes more than one row; styles take no column.
    @Test func rowsCountWhatTheTerminalWrapped() {
        #expect(FramePainter.rows(of: ["abc", String(repeating: "x", count: 81), ""], columns: 80) == 4)
        #expect(FramePainter.rows(of: [String(repeating: "x", count: 80)], columns: 80) == 1)
        #expect(
            FramePainter.rows(of: ["\u{1B}[1m" + String(repeating: "x", count: 78) + "\u{1B}[0m"], columns: 80) == 1)
        let vs16 = String(repeating: "\u{2764}\u{FE0F}", count: 41)
        #expect(FramePainter.rows(of: [vs16], columns: 80) == 2)
        #expect(
            ClusterWidths.$current.withValue(ClusterWidths(answers: [.emojiVS16: 1])) {
                FramePainter.rows(of: [vs16], columns: 80)
            } == 1)
    }
}
