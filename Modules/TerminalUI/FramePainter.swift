import Core

/// One slot of a frame as the painter draws it: what the component drew and whether it is hidden.
public struct SlotView: Sendable, Equatable {
    /// The component shown there.
    public let id: ComponentID
    /// What it last drew.
    public var block: Block?
    /// Whether the card is off the screen.
    public var hidden: Bool

    /// A slot showing `block` (nothing drawn yet when nil), or nothing when `hidden`.
    public init(id: ComponentID, block: Block? = nil, hidden: Bool = false) {
        (self.id, self.block, self.hidden) = (id, block, hidden)
    }
}

/// Paints a column of cards on a terminal, from the slots it is handed each time (it keeps no cards of its own).
/// Live mode redraws in place, rewriting only the lines that differ from what it painted before (or from the first
/// changed line down when the frame's height changed); otherwise it only lays frames out (``frame(_:)``). It knows
/// the window: the cursor is never moved above the window's top row (a terminal would stop it there and every
/// later repaint would land on the wrong lines), so a frame taller than the window is painted only as far as the
/// window reaches, and ``finishLive(_:)`` prints it whole once it has settled.
/// A value type: the one task that paints owns it.
public struct FramePainter: Sendable {
    private let width: Int
    private let styler: TextStyler
    private let live: Bool
    private let header: [String]
    private let write: @Sendable (String) -> Void
    /// The window's height now (nil: unknown, as tall as the frame).
    private let rows: @Sendable () -> Int?
    /// What is on the terminal now, from the painted region's top row (the cursor is on the row below): the
    /// previous frame as painted, the one thing a repaint compares with.
    private var painted: [String] = []
    private var firstFramePainted = false
    /// The frame was printed whole at the end: nothing more is painted in place.
    private var finished = false
    /// Bytes handed to `write` so far: a repaint's cost is visible.
    public private(set) var bytesWritten = 0

    /// A painter under `header`, drawing cards `width` columns wide through `write`, in a window `rows` high.
    public init(
        width: Int, styler: TextStyler, live: Bool, header: [String], rows: @escaping @Sendable () -> Int? = { nil },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.width = width
        self.styler = styler
        self.live = live
        self.header = header
        self.rows = rows
        self.write = write
    }

    /// The lines a slot occupies (none when hidden or when the component draws nothing).
    public func lines(for slot: SlotView) -> [String] {
        guard !slot.hidden, let block = slot.block else { return [] }
        return CardRenderer.lines(for: block, width: width, styler: styler)
    }

    /// The whole frame of `slots` as text (without a footer, which belongs to the live view).
    public func frame(_ slots: [SlotView]) -> String {
        (header + slots.flatMap(lines(for:))).map { $0 + "\n" }.joined()
    }

    /// Every line of the live view: the frame of `slots` and the `footer` lines under it ("updated 08:00:05").
    private func allLines(_ slots: [SlotView], _ footer: [String]) -> [String] {
        header + slots.flatMap(lines(for:)) + footer
    }

    /// What fits above the cursor's row: one row less than the window, so moving up to the region's top never
    /// passes the window's top row.
    private func fitting(_ lines: [String]) -> [String] {
        guard let rows = rows() else { return lines }
        return Array(lines.prefix(max(rows - 1, 0)))
    }

    /// Paints `slots` whole again below the cursor (live mode, after the process was stopped and continued:
    /// whatever the shell printed meanwhile makes in-place moves land on the wrong lines).
    public mutating func repaintWhole(_ slots: [SlotView], footer: [String] = []) {
        guard live, firstFramePainted, !finished else { return }
        paintFirstFrame(slots, footer: footer)
    }

    /// Paints the first frame (live mode only); later frames repaint in place (``paint(_:footer:)``).
    public mutating func paintFirstFrame(_ slots: [SlotView], footer: [String] = []) {
        guard live, !finished else { return }
        firstFramePainted = true
        painted = fitting(allLines(slots, footer))
        emit(painted.map { $0 + "\n" }.joined())
    }

    /// A new frame (live, once the first is painted): rewrites the lines that differ from what is painted, within
    /// the window.
    public mutating func paint(_ slots: [SlotView], footer: [String] = []) {
        guard live, firstFramePainted, !finished else { return }
        let new = fitting(allLines(slots, footer))
        guard new != painted else { return }
        let common = min(painted.count, new.count)
        let first = (0..<common).first { painted[$0] != new[$0] } ?? common
        let up = painted.count - first
        var output = up > 0 ? "\u{1B}[\(up)A\r" : "\r"
        if new.count == painted.count {
            let last = (first..<common).last { painted[$0] != new[$0] } ?? first
            output += new[first...last].map { "\u{1B}[2K" + $0 + "\n" }.joined()
            let down = painted.count - 1 - last
            if down > 0 { output += "\u{1B}[\(down)B" }
        } else {
            output += Self.overwriting(new[first...])
        }
        painted = new
        emit(output)
    }

    /// The run is over (live mode): the last frame, `slots` without a footer, replaces what is painted; one cut at
    /// the window is printed whole, from the painted region's top, so the screen and its scrollback hold exactly
    /// the frame.
    public mutating func finishLive(_ slots: [SlotView]) {
        guard live, firstFramePainted, !finished else { return }
        let all = allLines(slots, [])
        finished = true
        guard all != painted else { return }
        let up = painted.count
        emit((up > 0 ? "\u{1B}[\(up)A\r" : "\r") + Self.overwriting(all))
        painted = all
    }

    /// `lines` written over what is there, each line erased first, and what was below them erased after. Never
    /// an erase of the whole screen from its top: tmux (and other terminals) push a cleared screen into the
    /// scrollback, which would keep a copy of the frame there.
    private static func overwriting(_ lines: some Collection<String>) -> String {
        lines.map { "\u{1B}[2K" + $0 + "\n" }.joined() + "\u{1B}[J"
    }

    private mutating func emit(_ text: String) {
        bytesWritten += text.utf8.count
        write(text)
    }
}
