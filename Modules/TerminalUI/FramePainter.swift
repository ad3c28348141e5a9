import Core

/// One slot as a screen sees it: what the component last drew and whether the host hid it.
public struct SlotView: Sendable, Equatable {
    /// The component shown there.
    public let id: ComponentID
    /// What it last drew.
    public var block: Block?
    /// Whether the host removed the card.
    public var hidden = false

    /// A slot with nothing drawn yet.
    public init(id: ComponentID, block: Block? = nil) {
        self.id = id
        self.block = block
    }
}

/// Paints a column of cards on a terminal. Live mode redraws in place and rewrites only the changed slot's
/// lines (or from it down when its height changed); otherwise nothing is written until ``frame()``.
/// A value type: the one task that paints owns it.
public struct FramePainter: Sendable {
    private let width: Int
    private let styler: TextStyler
    private let live: Bool
    private let header: [String]
    private let write: @Sendable (String) -> Void
    /// The slots, in screen order.
    public private(set) var slots: [SlotView]
    private var painted: [[String]]
    private var firstFramePainted = false
    /// Bytes handed to `write` so far: a repaint's cost is visible.
    public private(set) var bytesWritten = 0

    /// A painter for `slots` under `header`, drawing cards `width` columns wide through `write`.
    public init(
        width: Int, styler: TextStyler, live: Bool, header: [String], slots: [SlotView],
        write: @escaping @Sendable (String) -> Void
    ) {
        self.width = width
        self.styler = styler
        self.live = live
        self.header = header
        self.slots = slots
        self.painted = slots.map { _ in [] }
        self.write = write
    }

    /// The lines a slot occupies now (none when hidden or when the component draws nothing).
    public func lines(for slot: SlotView) -> [String] {
        guard !slot.hidden, let block = slot.block else { return [] }
        return CardRenderer.lines(for: block, width: width, styler: styler)
    }

    /// Lines under the cards ("updated 08:00:05"), repainted in place by ``setFooter(_:)``.
    public private(set) var footer: [String] = []
    private var paintedFooter: [String] = []

    /// The whole frame as text (without the footer, which belongs to the live view).
    public func frame() -> String { (header + slots.flatMap(lines(for:))).map { $0 + "\n" }.joined() }

    /// Replaces the footer; live, rewrites just those lines.
    public mutating func setFooter(_ lines: [String]) {
        footer = lines
        guard live, firstFramePainted, lines != paintedFooter else { return }
        let up = paintedFooter.count
        var output = up > 0 ? "\u{1B}[\(up)A\r\u{1B}[J" : "\r\u{1B}[J"
        output += lines.map { $0 + "\n" }.joined()
        paintedFooter = lines
        emit(output)
    }

    /// Paints the whole frame again below the cursor (live mode, after the process was stopped and continued:
    /// whatever the shell printed meanwhile makes in-place moves land on the wrong lines).
    public mutating func repaintWhole() {
        guard live, firstFramePainted else { return }
        paintFirstFrame()
    }

    /// Paints the first frame (live mode only); later updates repaint in place.
    public mutating func paintFirstFrame() {
        guard live else { return }
        firstFramePainted = true
        painted = slots.map(lines(for:))
        paintedFooter = footer
        emit((header + painted.flatMap { $0 } + footer).map { $0 + "\n" }.joined())
    }

    /// Records a slot's new state (`block: nil` keeps the block) and, live, repaints just what changed.
    public mutating func update(_ index: Int, block: Block??, hidden: Bool? = nil) {
        if let block { slots[index].block = block }
        if let hidden { slots[index].hidden = hidden }
        guard live, firstFramePainted else { return }
        let new = lines(for: slots[index])
        guard new != painted[index] else { return }
        let above = header.count + painted[..<index].reduce(0) { $0 + $1.count }
        let total = header.count + painted.reduce(0) { $0 + $1.count } + paintedFooter.count
        let up = total - above
        var output = up > 0 ? "\u{1B}[\(up)A\r" : "\r"
        if new.count == painted[index].count {
            output += new.map { "\u{1B}[2K" + $0 + "\n" }.joined()
            let down = up - new.count
            if down > 0 { output += "\u{1B}[\(down)B" }
            painted[index] = new
        } else {
            painted[index] = new
            paintedFooter = footer
            output += "\u{1B}[J" + (painted[index...].flatMap { $0 } + footer).map { $0 + "\n" }.joined()
        }
        emit(output)
    }

    private mutating func emit(_ text: String) {
        bytesWritten += text.utf8.count
        write(text)
    }
}
