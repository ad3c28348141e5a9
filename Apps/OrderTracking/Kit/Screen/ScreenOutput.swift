import Core
import Foundation
import JSON
import ScreenRuntime

/// How a screen reaches stdout, decided once per run:
/// - live: a terminal that can redraw; cards repaint in place, under `--watch` with an "updated" line;
/// - plain: a pipe, a file, `--plain` or `TERM=dumb`; the final frame, or under `--watch` a frame headed by its
///   time each time something changed;
/// - json: one report object, or under `--watch` one per line (NDJSON) each time something changed.
final class ScreenOutput: Sendable {
    enum Mode: Sendable { case live, plain, json }

    let mode: Mode
    let watching: Bool
    let order: String
    let host: HostEnvironment
    private let last = Locked((text: String?.none, sequence: 0))

    init(options: TrackingOptions, host: HostEnvironment) {
        mode = options.json ? .json : (host.terminal.canRedraw && !options.plain ? .live : .plain)
        watching = options.watch
        order = options.order
        self.host = host
    }

    /// The screen settled (everything asked for has answered): under `--watch`, show it if it changed.
    func settled(_ frame: ScreenFrame, screen: PaintedScreen) {
        guard watching else { return }
        let time = Self.clockTime(host.clock.now())
        switch mode {
        case .live:
            screen.paint { $0.setFooter([host.terminal.styler.apply(.dim, "updated \(time) · Ctrl-C to stop")]) }
        case .plain:
            let text = screen.read { $0.frame() }
            emitIfChanged(key: text) { _ in "── \(time) " + String(repeating: "─", count: 20) + "\n" + text }
        case .json:
            let body = JSONReport(order: order, frame: frame, includingTimes: false).text
            emitIfChanged(key: body) { sequence in
                JSONReport(order: order, frame: frame, sequence: sequence, time: host.clock.now()).text + "\n"
            }
        }
    }

    /// The run is over: the last frame or report, unless `--watch` already showed exactly this.
    func finished(_ frame: ScreenFrame, screen: PaintedScreen) {
        switch mode {
        case .live:
            screen.paint { $0.setFooter([]) }
        case .plain:
            if !watching { host.terminal.out(screen.read { $0.frame() }) }
        case .json:
            if !watching { host.terminal.out(JSONReport(order: order, frame: frame).text + "\n") }
        }
    }

    private func emitIfChanged(key: String, _ text: (Int) -> String) {
        let sequence: Int? = last.withLock { last in
            guard last.text != key else { return nil }
            last.text = key
            last.sequence += 1
            return last.sequence
        }
        if let sequence { host.terminal.out(text(sequence)) }
    }

    /// "08:00:05" in the machine's time zone.
    static func clockTime(_ date: Date) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + TimeZone.current.secondsFromGMT(for: date)
        let seconds = ((local % 86_400) + 86_400) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}
