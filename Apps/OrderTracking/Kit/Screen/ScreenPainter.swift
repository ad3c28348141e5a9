import Core

/// One slot as the host sees it: what the component last drew and whether the host hid it.
struct SlotView {
    let id: ComponentID
    let module: String
    var block: Block?
    var hidden = false
}

/// Paints slots on a terminal. Live mode redraws in place and touches only the changed slot's lines;
/// otherwise nothing is written until the final frame. The header (title, tab bar) is host chrome.
final class ScreenPainter {
    private let terminal: Terminal
    private let live: Bool
    private let header: [String]
    private(set) var slots: [SlotView]
    private var painted: [[String]]
    private var firstFramePainted = false
    /// Bytes written so far, so benchmarks and tests can see that a repaint touched only one slot.
    private(set) var bytesWritten = 0

    init(terminal: Terminal, live: Bool, header: [String], slots: [SlotView]) {
        self.terminal = terminal
        self.live = live
        self.header = header
        self.slots = slots
        self.painted = slots.map { _ in [] }
    }

    /// The lines a slot occupies now (none when hidden or when the component draws nothing).
    func lines(for slot: SlotView) -> [String] {
        guard !slot.hidden, let block = slot.block else { return [] }
        return CardRenderer.lines(for: block, width: terminal.cardWidth, styler: terminal.styler)
    }

    /// The whole frame as text, for non-live output and golden tests.
    func frame() -> String { (header + slots.flatMap(lines(for:))).map { $0 + "\n" }.joined() }

    /// Paints the first frame (live mode only).
    func paintFirstFrame() {
        guard live else { return }
        firstFramePainted = true
        terminal.hideCursor()
        painted = slots.map(lines(for:))
        write((header + painted.flatMap { $0 }).map { $0 + "\n" }.joined())
    }

    /// Records a slot's new state and, live, repaints just that slot (or from it down when its height changed).
    func update(_ index: Int, block: Block??, hidden: Bool? = nil) {
        if let block { slots[index].block = block }
        if let hidden { slots[index].hidden = hidden }
        guard live, firstFramePainted else { return }
        let new = lines(for: slots[index])
        guard new != painted[index] else { return }
        let above = header.count + painted[..<index].reduce(0) { $0 + $1.count }
        let total = header.count + painted.reduce(0) { $0 + $1.count }
        let up = total - above
        var output = up > 0 ? "\u{1B}[\(up)A\r" : "\r"
        if new.count == painted[index].count {
            output += new.map { "\u{1B}[2K" + $0 + "\n" }.joined()
            let down = up - new.count
            if down > 0 { output += "\u{1B}[\(down)B" }
            painted[index] = new
        } else {
            painted[index] = new
            output += "\u{1B}[J" + painted[index...].flatMap { $0 }.map { $0 + "\n" }.joined()
        }
        write(output)
    }

    private func write(_ text: String) {
        bytesWritten += text.utf8.count
        terminal.out(text)
    }
}
