import Core
import Foundation
import Testing

@testable import TerminalUI

/// The painter knows the window: it never moves the cursor above the window's top row, and a frame taller than
/// the window is printed whole once the run is over.
@Suite struct FramePainterTests {
    final class Output: Sendable {
        let text = Locked("")
    }

    /// A painter of three 3-line cards under a title (10 lines) in a window `rows` high.
    func painter(rows: Int?, _ output: Output) -> FramePainter {
        FramePainter(width: 20, styler: TextStyler(colors: false), live: true, header: ["Title"], rows: { rows }) {
            text in output.text.withLock { $0 += text }
        }
    }

    /// Three 3-line skeleton cards.
    static let skeletons = (0..<3).map {
        SlotView(id: ComponentID(rawValue: "c\($0)"), block: Block.skeleton(title: "C", lines: 1))
    }

    /// Every "cursor up N" the painter wrote.
    func ups(_ text: String) -> [Int] {
        text.components(separatedBy: "\u{1B}[").dropFirst().compactMap { part in
            let digits = part.prefix { $0.isNumber }
            return part.dropFirst(digits.count).first == "A" ? Int(digits) : nil
        }
    }

    @Test func aFrameTallerThanTheWindowIsPaintedAsFarAsItReachesThenPrintedWhole() {
        let output = Output()
        var painter = painter(rows: 6, output)
        painter.paintFirstFrame(Self.skeletons)
        #expect(output.text.withLock { $0 }.split(separator: "\n").count == 5, "one row less than the window")
        var slots = Self.skeletons
        for index in 0..<3 {
            slots[index].block = Block(title: "Card \(index)", rows: [Row("info \(index)")])
            painter.paint(slots)
        }
        painter.finishLive(slots)
        let written = output.text.withLock { $0 }
        #expect(!ups(written).isEmpty && ups(written).allSatisfy { $0 <= 5 }, "never above the window: \(ups(written))")
        #expect(
            written.hasSuffix(
                painter.frame(slots).split(separator: "\n").map { "\u{1B}[2K" + $0 + "\n" }.joined() + "\u{1B}[J"))
        #expect(!written.contains("\u{1B}[J\u{1B}[2KTitle"), "never a clear of the whole screen before the frame")
    }

    @Test func aFrameThatFitsIsRedrawnInPlaceAndNotPrintedAgain() {
        let output = Output()
        var painter = painter(rows: 40, output)
        painter.paintFirstFrame(Self.skeletons)
        var slots = Self.skeletons
        slots[1].block = Block(title: "Card", rows: [Row("info")])
        painter.paint(slots)
        let before = output.text.withLock { $0 }
        painter.finishLive(slots)
        #expect(output.text.withLock { $0 } == before)
        // The title and the first (4-line) skeleton card stay; the second card changed, so from its first line.
        #expect(ups(before) == [8], "\(before.debugDescription)")
    }
}
