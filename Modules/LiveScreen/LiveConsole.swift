import Core
import Foundation
import HostIO
import ScreenRuntime
import ScreenSinks
import TerminalUI

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What the live screen asks of the host's tab bar, which the host builds from its tab plugins (the Tabs module,
/// which this library does not import). The bar itself is the console's state (``ScreenConsole/tabs``).
public struct ConsoleTabs: Sendable {
    /// Opening a tab: its screen's lines, or what its action did.
    public var open: @Sendable (_ id: String) async -> [String]
    /// A look at who is signed in: `tell` hears the bar when it changed, and again whenever one of the tabs now on
    /// it changes its badge.
    public var look: @Sendable (_ tell: @escaping @Sendable (ConsoleAnswer) -> Void) -> Void
    /// How often to look (another process may sign in or out); nil: never.
    public var every: Duration?

    /// A bar from the host's two answers, looked at every `every`.
    public init(
        open: @escaping @Sendable (String) async -> [String],
        look: @escaping @Sendable (@escaping @Sendable (ConsoleAnswer) -> Void) -> Void, every: Duration? = nil
    ) { (self.open, self.look, self.every) = (open, look, every) }

    /// No bar at all (a host without tabs).
    public static let none = ConsoleTabs(open: { _ in [] }, look: { _ in })

    /// Follows the bar with tab `selected` on `terminal` (`tabs --watch`) until the task is cancelled: redrawn in
    /// place on a terminal, elsewhere a line headed by its time each time it changes.
    public func show(selected: String, on terminal: Terminal, clock: any CourierClock) async {
        let live = terminal.canRedraw
        let shown = Locked(String?.none)
        terminal.hideCursorIf(live)
        await follow(on: clock) { answer in
            guard case .tabs(let tabs, _) = answer, !tabs.isEmpty else { return }
            let text = TabStrip.line(
                tabs.map { ($0.id, $0.title, $0.badge) }, selected: selected, styler: terminal.styler)
            guard
                shown.withLock({ last in
                    defer { last = text }
                    return last != text
                })
            else { return }
            terminal.out(live ? "\r\u{1B}[2K" + text : ScreenOutput.clockTime(clock.now()) + "  " + text + "\n")
        }
    }

    /// Looks at who is signed in now and then every ``every`` on `clock` (never the wall clock), each look's answers
    /// to `tell`, until the task is cancelled; at once without ``every``.
    public func follow(on clock: any CourierClock, _ tell: @escaping @Sendable (ConsoleAnswer) -> Void) async {
        guard let every else { return }
        while !Task.isCancelled {
            look(tell)
            do { try await clock.sleep(for: every) } catch { return }
        }
    }
}

/// The live screen a person drives: `order-tracking ID --watch` on a terminal. It runs the screen runtime and owns
/// its console (``ScreenConsole``: what is open, the tab bar, what a key means), so it takes every key itself and
/// tells the runtime only what a person asks of the screen (reload, an action, a yes to the check shown, a typed
/// value, quit); it does what only the host can (a tab's content, a look at who is signed in, on the runtime's
/// clock) and draws every frame it is handed whole on the alternate screen (the cards, the bar, what is open, the
/// "updated" time), at the terminal's width now, so a resize redraws cleanly. The terminal is given back whatever
/// ends the run: `q`, the order finishing, or a signal (HostIO restores it).
public final class LiveConsole: Sendable {
    private let title: String
    private let runtime: ScreenRuntime
    private let terminal: Terminal
    private let tabs: ConsoleTabs
    private let skipping: Set<ComponentID>
    /// The console and the newest frame the runtime handed, changed under one lock in the order things happen (a
    /// key, a frame, a drawing, the bar's answer), and while ``run(keys:)`` runs the one drawer task's wake-up,
    /// which keeps only the newest request, so a burst of keys (10,000 pasted `r`) costs one or two draws, not one
    /// each, and a resize redraws the newest frame.
    private let screen: Locked<Shown>
    /// While ``run(keys:)`` runs: slow errands (a tab's content) handed to a child task that runs each beside the
    /// keys, so keys are never held behind them.
    private let errands = Locked(AsyncStream<@Sendable () async -> Void>.Continuation?.none)

    private struct Shown: Sendable {
        var console: ScreenConsole
        var frame: ScreenFrame?
        var wake: AsyncStream<Void>.Continuation?
    }

    /// A live screen titled `title` over `runtime` (whose settings carry the screen's prompts and actions): a code
    /// sent from a prompt is handed to the runtime, which keeps it in the screen's state and routes it to the cards
    /// that declared they take it. The cards in `skipping` are not drawn in the body (the tab bar card: the bar is
    /// drawn above).
    public init(
        title: String, runtime: ScreenRuntime, terminal: Terminal, tabs: ConsoleTabs,
        skipping: Set<ComponentID> = []
    ) {
        (self.title, self.runtime, self.terminal) = (title, runtime, terminal)
        (self.tabs, self.skipping) = (tabs, skipping)
        let console = ScreenConsole(prompts: runtime.offers.prompts, actions: runtime.offers.actions)
        screen = Locked(Shown(console: console))
    }

    /// Runs until `q`/Esc, the order finishing or the task being cancelled (a signal, a vanished reader), reading
    /// `keys`; returns the last frame with the terminal given back. The run is one task tree: the runtime's loop
    /// in this task, and beside it children that draw, take keys, look at the session and run errands, all ended
    /// before this returns.
    public func run(keys: AsyncStream<[Key]>) async -> ScreenFrame {
        terminal.enterInteractive()
        terminal.onResume { [weak self] in self?.redraw() }
        // Asked before the first frame, never waited for: the key reader hands the answers over, and a width they
        // change redraws the screen.
        terminal.askWidths(readingKeys: true) { [weak self] in self?.redraw() }
        signal(SIGWINCH, SIG_IGN)
        let resized = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resized.setEventHandler { [self] in redraw() }
        resized.resume()
        let (requests, requested) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        screen.withLock { $0.wake = requested }
        let (jobs, queued) = AsyncStream<@Sendable () async -> Void>.makeStream()
        errands.withLock { $0 = queued }
        let ended = CancelTrigger()
        let final = await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                for await _ in requests {
                    let shown = screen.withLock { ($0.frame, $0.console) }
                    if let frame = shown.0 { terminal.measuring { draw(frame, shown.1) } }
                }
            }
            // Keys, looks and errands stop when the screen has: their streams would only end with the key reader.
            group.addTask { [self] in
                await cancelling(when: ended) {
                    await withDiscardingTaskGroup { beside in
                        beside.addTask { [self] in
                            for await batch in keys { take(batch) }
                        }
                        beside.addTask { [self] in
                            await tabs.follow(on: runtime.runsOn) { [weak self] in self?.answer($0) }
                        }
                        for await job in jobs { beside.addTask { await job() } }
                    }
                }
            }
            let final = await runtime.run { [self] frame, moment in
                let step = screen.withLock { shown in
                    shown.frame = frame
                    return shown.console.reduce(.frame(frame, moment))
                }
                if step.redraws { redraw() }
            }
            ended.fire()
            resized.cancel()
            errands.withLock { $0 = nil }
            queued.finish()
            // The drawer draws what was last asked, then ends.
            screen.withLock { $0.wake = nil }
            requested.finish()
            return final
        }
        terminal.leaveInteractive()
        return final
    }

    /// One read of the terminal: the console takes the keys (``ScreenConsole/take(_:)``), then what they asked is
    /// carried out.
    private func take(_ batch: [Key]) {
        let actions = screen.withLock { $0.console.take(batch) }
        redraw()
        for action in actions { carryOut(action) }
    }

    /// The host's tab bar answered: the console shows it, and fetches a tab again when its user changed. The host
    /// keeps the closures that call this past the run (its observers), so they hold the console weakly.
    private func answer(_ answer: ConsoleAnswer) {
        let step = screen.withLock { $0.console.reduce(.answered(answer)) }
        if step.redraws { redraw() }
        if let action = step.action { carryOut(action) }
    }

    /// Tells the runtime what a person asked of the screen, or does what only the host can: a tab's content is
    /// fetched beside the keys, so `q` is never held behind it.
    private func carryOut(_ action: ScreenConsole.Action) {
        switch action {
        case .quit: runtime.send(.stop)
        case .reload: runtime.reloadNow()
        case .act(let id): runtime.send(.act(id))
        case .confirm(let id, let shown): runtime.send(.confirm(id, shown: shown))
        case .close(let id): runtime.send(.close(id))
        case .submit(let event): runtime.send(.input(event))
        case .open(let id):
            let tabs = tabs
            errands.withLock { $0 }?.yield { [self] in answer(.opened(tab: id, lines: await tabs.open(id))) }
        case .perform(let id):
            let tabs = tabs
            errands.withLock { $0 }?.yield { [self] in
                let said = await tabs.open(id)
                answer(.performed(said: said.joined(separator: " ")))
                // What it did changes the bar (a sign-out): looked at now, not at the next look.
                tabs.look { [weak self] in self?.answer($0) }
            }
        }
    }

    /// Asks the drawer for the whole screen as it stands (a new frame, a key, a resize, a resume). Nothing outside
    /// ``run(keys:)``.
    func redraw() {
        screen.withLock { $0.wake }?.yield()
    }

    /// Draws `frame` with `console` over it whole from the top, at the terminal's width now; only the drawer task
    /// draws.
    private func draw(_ frame: ScreenFrame, _ console: ScreenConsole) {
        let width = terminal.currentWidth()
        var console = console
        let rows = terminal.currentHeight() ?? 10_000
        // Below the narrowest card or with no room for a card and the keys line: say so, on one line, rather
        // than garble the screen or leave it blank. No newline: at one row it would scroll the line away.
        if width < Self.minimumColumns || rows < Self.minimumRows {
            let notice =
                "Too small (\(width)×\(rows)): make it at least \(Self.minimumColumns)×\(Self.minimumRows); q quits"
            terminal.out("\u{1B}[H" + DisplayWidth.truncate(notice, to: max(width, 1)) + "\u{1B}[K\u{1B}[J")
            return
        }
        // A critical card failed: the screen says so instead of showing the survivors, until `r` brings it back.
        if let failure = frame.failure { console.message = "Can't show this screen (r retries): \(failure)" }
        let bar = console.selectedTab.map { selected in
            DisplayWidth.truncate(
                TabStrip.line(console.tabs.map { ($0.id, $0.title, $0.badge) }, selected: selected.id), to: width)
        }
        // What is open (a dialog and its question), the message and the keys line stay at the bottom; the body
        // (the cards, or another tab's lines) scrolls between the bar and them, as in `less`.
        let head = 1 + (bar == nil ? 0 : 1)
        let tail = Array(
            console.lines(
                title: title, bar: bar, body: [], updated: nil, width: width, styler: terminal.styler,
                position: (1, 1, 2))[head...])
        let page = max(rows - 1 - head - tail.count, 0)
        let tabLines = console.selected == 0 ? nil : console.body
        let cardLines = tabLines == nil && frame.failure == nil ? cards(frame, width) : []
        let count = tabLines?.count ?? cardLines.count
        let top = min(console.scroll, max(count - page, 0))
        let shownRange = top..<min(top + page, count)
        // Another tab's lines are cut to fit only where shown (a 200,000-item feed lays out a window of them).
        let body =
            tabLines.map { lines in lines[shownRange].map { DisplayWidth.truncate($0, to: width) } }
            ?? Array(cardLines[shownRange])
        let lines = console.lines(
            title: title, bar: bar, body: body, updated: frame.settledAt.map(ScreenOutput.clockTime), width: width,
            styler: terminal.styler,
            position: count > page && page > 0 ? (top + 1, top + body.count, count) : nil)
        // What is open taller than the window (a dialog's question, the keys): say so rather than leave the
        // screen blank; its question is not on the screen, so no `y` answers it.
        let notice =
            "Too small for what is open (\(width)×\(rows)): make it at least \(tail.count + 1) rows; Esc closes"
        let shown =
            lines.count < rows
            ? lines
            : tail.count < rows
                ? tail
                : [
                    terminal.styler.apply(.warning, DisplayWidth.truncate(notice, to: max(width, 1))),
                    lines[lines.count - 1],
                ]
        // The question is about to be on the screen: from here on a `y` may answer it, and the console learns how
        // far its body scrolls. Said just before the bytes go out, under the lock every key is reduced under, so the
        // `y` of someone who read the question always comes after this, however late a busy machine runs this
        // thread.
        let asked = console.asks && tail.count < rows
        _ = screen.withLock {
            $0.console.reduce(.drawn(revision: asked ? console.revision : -1, rows: count, page: page))
        }
        terminal.out("\u{1B}[H" + shown.map { $0 + "\u{1B}[K\n" }.joined() + "\u{1B}[J")
    }

    /// The narrowest terminal the cards can be drawn in, and the fewest rows for a card line and the keys line.
    static let minimumColumns = CardRenderer.minimumWidth
    static let minimumRows = 3

    private func cards(_ frame: ScreenFrame, _ width: Int) -> [String] {
        let cardWidth = CardRenderer.width(forColumns: width)
        return frame.cards.filter { $0.visible && !skipping.contains($0.id) }.flatMap { card in
            card.shownBlock.map { CardRenderer.lines(for: $0, width: cardWidth, styler: terminal.styler) } ?? []
        }
    }
}
