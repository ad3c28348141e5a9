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
    private var width: Int
    private let styler: TextStyler
    private let live: Bool
    private var header: [String]
    private let write: @Sendable (String) -> Void
    /// The window's height now (nil: unknown, as tall as the frame).
    private let rows: @Sendable () -> Int?
    /// The window's width now (nil: unknown, every line one row).
    private let columns: @Sendable () -> Int?
    /// The window's width and the widths measured with when the frame on the terminal was painted: when either
    /// changed (a resize, the terminal's answers about widths), that frame takes another number of rows now, and
    /// the next frame is painted over all of them.
    private var paintedColumns: Int?
    private var paintedWidths = ClusterWidths.unicode
    /// What is on the terminal now, from the painted region's top row (the cursor is on the row below): the
    /// previous frame as painted, the one thing a repaint compares with.
    private var painted: [String] = []
    private var firstFramePainted = false
    /// The frame was printed whole at the end: nothing more is painted in place.
    private var finished = false
    /// Bytes handed to `write` so far: a repaint's cost is visible.
    public private(set) var bytesWritten = 0

    /// A painter under `header`, drawing cards `width` columns wide through `write`, in a window `rows` high.
    /// `columns` is the window's width now: what the terminal reflowed a line to after a resize.
    public init(
        width: Int, styler: TextStyler, live: Bool, header: [String], rows: @escaping @Sendable () -> Int? = { nil },
        columns: @escaping @Sendable () -> Int? = { nil }, write: @escaping @Sendable (String) -> Void
    ) {
        self.width = width
        self.styler = styler
        self.live = live
        self.header = header
        self.rows = rows
        self.columns = columns
        self.write = write
    }

    /// Cards `width` columns wide under `header` from the next frame on (the window was resized).
    public mutating func relayout(width: Int, header: [String]) {
        (self.width, self.header) = (width, header)
    }

    /// The rows `lines` take on a terminal `columns` wide that measures as ``ClusterWidths/current``: a line
    /// wider than the window wraps (or, after a resize, is reflowed) onto more than one. Styles take no column.
    public static func rows(of lines: [String], columns: Int?) -> Int {
        guard let columns, columns > 0 else { return lines.count }
        return lines.reduce(0) { $0 + max(1, (DisplayWidth.of(unstyled($1)) + columns - 1) / columns) }
    }

    /// `line` without its SGR sequences (`ESC [ … m`).
    static func unstyled(_ line: String) -> String {
        guard line.contains("\u{1B}") else { return line }
        var result = ""
        var escaping = false
        for scalar in line.unicodeScalars {
            if escaping {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { escaping = false }
            } else if scalar == "\u{1B}" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The rows the painted frame takes on the terminal now.
    private var paintedRows: Int { Self.rows(of: painted, columns: columns()) }

    /// Whether the painted frame still takes one row a line, as when it was painted.
    private var paintedAsItWas: Bool {
        paintedColumns == columns() && paintedWidths == ClusterWidths.current && paintedRows == painted.count
    }

    /// Notes the window's width and the widths the frame just painted was measured with.
    private mutating func notePainted() {
        paintedColumns = columns()
        paintedWidths = ClusterWidths.current
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
        notePainted()
        emit(painted.map { $0 + "\n" }.joined())
    }

    /// A new frame (live, once the first is painted): rewrites the lines that differ from what is painted, within
    /// the window.
    public mutating func paint(_ slots: [SlotView], footer: [String] = []) {
        guard live, firstFramePainted, !finished else { return }
        let new = fitting(allLines(slots, footer))
        guard paintedAsItWas else {
            // A resize or the terminal's answers: the painted frame now takes other rows; all of them are
            // painted over (the terminal stops the cursor at the window's top row).
            let up = paintedRows
            emit((up > 0 ? "\u{1B}[\(up)A\r" : "\r") + Self.overwriting(new))
            painted = new
            notePainted()
            return
        }
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
        guard all != painted || !paintedAsItWas else { return }
        let up = paintedRows
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
