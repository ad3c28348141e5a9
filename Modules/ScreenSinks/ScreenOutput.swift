import Core
import Foundation
import HostIO
import ScreenRuntime
import TerminalUI

/// How a screen's frames reach stdout, decided once per run:
/// - live: a terminal that can redraw; cards repaint in place, under `watch` with an "updated" line;
/// - plain: a pipe, a file, `--plain` or `TERM=dumb`; the final frame, or under `watch` a frame headed by its
///   time each time something changed;
/// - json: one report object, or under `watch` one per line (NDJSON) each time something changed.
/// Hand it every frame the runtime gives (`show`) and the last one (`finish`).
public final class ScreenOutput: Sendable {
    /// Where the frames go; `json` also means the runtime must encode each card's info.
    public enum Mode: Sendable { case live, plain, json }

    /// Chosen from `json`, `plain` and whether the terminal can redraw.
    public let mode: Mode
    private let watching: Bool
    private let subject: ScreenSubject
    private let terminal: Terminal
    private let shown: Locked<Shown>
    /// Live: SIGWINCH while the frame is painted in place (cancelled by ``finish(_:)``).
    private let resizes = ResizeWatch()

    /// The SIGWINCH source, set once by `init` and only cancelled afterwards (`cancel` may be called from any
    /// thread): `@unchecked` for that reason, as the source's type is not `Sendable`.
    private final class ResizeWatch: @unchecked Sendable {
        var source: (any DispatchSourceSignal)?
        deinit { source?.cancel() }
    }

    /// The painter, and the frames it compares with: the last one handed (what a resume paints again) and, under
    /// watch, the last one written as a plain frame or an NDJSON line, with its number (a frame that reads the
    /// same is not written again).
    private struct Shown: Sendable {
        var painter: FramePainter
        var handed: ScreenFrame?
        var written: ScreenFrame?
        var sequence = 0
    }

    /// An output for `subject`'s screen, written to `terminal`.
    public init(subject: ScreenSubject, json: Bool, plain: Bool, watch: Bool, terminal: Terminal) {
        let mode: Mode = json ? .json : (terminal.canRedraw && !plain ? .live : .plain)
        (self.mode, watching, self.subject, self.terminal) = (mode, watch, subject, terminal)
        let columns = terminal.currentWidth()
        shown = Locked(
            Shown(
                painter: FramePainter(
                    width: CardRenderer.width(forColumns: columns), styler: terminal.styler, live: mode == .live,
                    header: Self.header(subject, columns: columns, terminal: terminal),
                    rows: { terminal.currentHeight() }, columns: { terminal.isTTY ? terminal.currentWidth() : nil }
                ) { terminal.out($0) }))
        terminal.onResume { [weak self] in self?.resumed() }
        guard mode == .live else { return }
        // The window may change while the frame is painted: the next frame is laid out at its width and painted
        // over every row the terminal reflowed the last one to, so the run ends with exactly its frame.
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        source.setEventHandler { [weak self] in self?.resized() }
        source.resume()
        resizes.source = source
    }

    /// The title over the cards, `columns` wide at most. It is the backend's text and may be longer than the
    /// window: cut to one line, as the live screen cuts it, for the painter counts each line as one row (a
    /// wrapped title put every repaint rows too high).
    private static func header(_ subject: ScreenSubject, columns: Int, terminal: Terminal) -> [String] {
        [terminal.styler.apply(.bold, DisplayWidth.truncate(subject.title, to: max(columns, 1)))]
    }

    /// The window was resized while the frame is painted in place: the last frame handed, laid out again.
    private func resized() {
        terminal.measuring {
            shown.withLock { shown in
                let columns = terminal.currentWidth()
                shown.painter.relayout(
                    width: CardRenderer.width(forColumns: columns),
                    header: Self.header(subject, columns: columns, terminal: terminal))
                guard let frame = shown.handed else { return }
                shown.painter.paint(frame.slots, footer: Self.footer(frame, watching: watching, terminal: terminal))
            }
        }
    }

    /// The terminal said it draws some clusters at other widths than Unicode's: the last frame handed is
    /// measured and painted again as it draws them.
    private func remeasured() {
        terminal.measuring {
            shown.withLock { shown in
                guard let frame = shown.handed else { return }
                shown.painter.paint(frame.slots, footer: Self.footer(frame, watching: watching, terminal: terminal))
            }
        }
    }

    /// The process was stopped and continued: the last frame handed is painted whole again.
    private func resumed() {
        terminal.measuring {
            shown.withLock { shown in
                guard let frame = shown.handed else { return }
                shown.painter.repaintWhole(
                    frame.slots, footer: Self.footer(frame, watching: watching, terminal: terminal))
            }
        }
    }

    /// One frame from the runtime: the skeletons at `.first`, each change in place (under `watch` with the
    /// "updated" time the frame carries), and under `watch` a timestamped frame or NDJSON line when the screen
    /// `.settled` into something new.
    public func show(_ frame: ScreenFrame, _ moment: FrameMoment) {
        if moment == .first {
            terminal.hideCursorIf(mode == .live)
            // Asked before the first frame is painted, never waited for: the answers repaint it if they must.
            if mode == .live { terminal.askWidths(readingKeys: false) { [weak self] in self?.remeasured() } }
        }
        terminal.measuring {
            let footer = Self.footer(frame, watching: watching, terminal: terminal)
            shown.withLock { shown in
                shown.handed = frame
                if moment == .first {
                    shown.painter.paintFirstFrame(frame.slots, footer: footer)
                } else {
                    shown.painter.paint(frame.slots, footer: footer)
                }
            }
        }
        guard moment == .settled, watching, let settled = frame.settledAt else { return }
        let time = Self.clockTime(settled)
        switch mode {
        case .live: break
        case .plain:
            let text = text(of: frame)
            writeIfChanged(frame, same: { self.text(of: $0) == text }) { _ in
                "── \(time) " + String(repeating: "─", count: 20) + "\n" + text
            }
        case .json:
            let body = JSONReport(subject: subject, frame: frame, includingTimes: false).text
            writeIfChanged(
                frame, same: { JSONReport(subject: self.subject, frame: $0, includingTimes: false).text == body }
            ) { sequence in
                JSONReport(subject: subject, frame: frame, sequence: sequence, time: settled).text + "\n"
            }
        }
    }

    /// Under `watch` on a live terminal, the line under the cards: when the frame's screen last settled. One row,
    /// as the painter counts it: at 33 columns or fewer the line would wrap and every repaint would land a row
    /// too high, leaving a stack of "updated" lines.
    private static func footer(_ frame: ScreenFrame, watching: Bool, terminal: Terminal) -> [String] {
        guard watching, let settled = frame.settledAt else { return [] }
        let line = "updated \(clockTime(settled)) · Ctrl-C to stop"
        return [terminal.styler.apply(.dim, DisplayWidth.truncate(line, to: max(terminal.currentWidth(), 1)))]
    }

    /// `frame` as a plain text frame: the title and the cards on screen.
    private func text(of frame: ScreenFrame) -> String {
        terminal.measuring { shown.withLock { $0.painter.frame(frame.slots) } }
    }

    /// The run is over, whatever ended it (a signal too: the run unwinds to here): the last frame or report
    /// (unless `watch` already showed exactly this), then what an action came to (text; a payment sent and not
    /// answered "may have gone through"), the terminal restored, one stderr line if a critical card failed the
    /// screen and one per other hidden card saying why.
    public func finish(_ frame: ScreenFrame) {
        resizes.source?.cancel()
        switch mode {
        case .live:
            terminal.measuring {
                shown.withLock { shown in
                    shown.handed = frame
                    shown.painter.paint(frame.slots)
                    shown.painter.finishLive(frame.slots)
                }
            }
        case .plain: break
        case .json: if !watching { terminal.out(JSONReport(subject: subject, frame: frame).text + "\n") }
        }
        let closing = closing(shown: frame)
        if !closing.out.isEmpty { terminal.out(closing.out) }
        terminal.restore()
        for line in closing.err { terminal.err(line) }
    }

    private func closing(shown frame: ScreenFrame) -> (out: String, err: [String]) {
        // A failed screen's survivors are not the screen: plain text says nothing but the stderr line.
        var out = mode == .plain && !watching && frame.failure == nil ? text(of: frame) : ""
        if mode != .json, let action = ActionReport(frame.action) { out += action.lines.map { $0 + "\n" }.joined() }
        var err: [String] = []
        if let failure = frame.failure {
            err.append("\(subject.title) cannot be shown: \(failure) (a card it cannot do without); try again later")
        }
        for card in frame.cards where !card.visible && !card.critical {
            err.append("\(card.id) hidden: \(card.reason ?? "failed")")
        }
        return (out, err)
    }

    /// Writes `text` (numbered) unless the last frame written reads the `same` as `frame`. Frames come from the
    /// runtime one at a time, so the comparison needs no lock of its own.
    private func writeIfChanged(_ frame: ScreenFrame, same: (ScreenFrame) -> Bool, _ text: (Int) -> String) {
        if let written = shown.withLock({ $0.written }), same(written) { return }
        let sequence = shown.withLock { shown in
            shown.written = frame
            shown.sequence += 1
            return shown.sequence
        }
        terminal.out(text(sequence))
    }

    /// "08:00:05" in the machine's time zone: how a person reads "when" on a card or a watch line.
    public static func clockTime(_ date: Date) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + TimeZone.current.secondsFromGMT(for: date)
        let seconds = ((local % 86_400) + 86_400) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}
