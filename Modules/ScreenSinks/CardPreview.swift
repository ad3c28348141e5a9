import ArgumentParsing
import Core
import Foundation
import HostIO
import InputRules
import SafeText
import ScreenRuntime
import TerminalUI

/// One component alone (presentation: alone) with a payload, a forced state or the backend the host composed for
/// it (an injected fault in front of its own: backends are built by the host, never here), through the same
/// runtime as a screen, so a squad sees every state of its card without the rest of the app
/// (`order-tracking preview COMPONENT`).
public struct CardPreview: Sendable {
    let id: ComponentID
    /// Other squads' events to deliver after the load, in order (`--event NAME=VALUE`).
    let events: [DomainEvent]
    /// Prompts' values said before the first load, as a screen routes them (`--input promo=SAVE10`).
    let said: [DomainEvent]
    /// The ids the card reads (`--order`, `--input`).
    let ids: [String: String]
    let payload: Data?
    let state: Phase?

    /// A preview of card `id` reading `ids` and the prompts' values `said`, fed `payload` (or, without one, what
    /// its backend answers), forced to `state`, then handed `events`.
    public init(
        id: ComponentID, events: [DomainEvent], said: [DomainEvent] = [], ids: [String: String], payload: Data?,
        state: Phase?
    ) {
        (self.id, self.events, self.said, self.ids, self.payload, self.state) = (id, events, said, ids, payload, state)
    }

    /// Shows the card on `terminal` and returns the phase it reached, or nil when `registry` has no such card
    /// (said on stderr with a did-you-mean: a usage error).
    public func show(
        registry: ComponentRegistry, backend: any Backend, clock: any CourierClock, timeout: Duration,
        runner: any ComponentRunner, terminal: Terminal
    ) async -> Phase? {
        let module: String
        do { module = try registry.registration(for: id).module } catch {
            let known = registry.registrations.map(\.id.rawValue)
            terminal.err("\(error)" + suggestion(for: id.rawValue, among: known))
            return nil
        }
        // Asked while the card loads; the card is printed as soon as it is there and printed again below if the
        // answers change a width (``reprinted``).
        if terminal.canRedraw { terminal.askWidths(readingKeys: false) {} }
        // One card, through the same runtime as the screen: its own context, alone, fed the payload or the fault.
        var settings = ScreenSettings(ids: ids)
        settings.said = said
        (settings.presentation, settings.timeout, settings.load) = (.alone, timeout, state != .loading)
        settings.runner = runner
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: id, payload: payload)], registry: registry, backend: backend,
            clock: clock, settings: settings, report: RuntimeReport(terminal: terminal, trace: false, analytics: nil))
        let (reactions, last) = await runtime.opened(loading: settings.load ? [0] : []) {
            var reactions: [String] = []
            for event in events {
                let reaction = await runtime.deliver(event)[id]
                // A signal that cut the delivery short leaves the card's reaction untold, not "no change".
                guard !Task.isCancelled else { break }
                // The event as given, cut: a 100 KB value is said back as one short line.
                let said = InputEcho.cut(event.description)
                switch reaction {
                case .reloaded?: reactions.append("\(said): reloaded")
                case .updated?: reactions.append("\(said): updated")
                default: reactions.append("\(said): no change (\(id) does not act on \(event.name) now)")
                }
            }
            return reactions
        }
        let card = last.cards[0]
        if let forced = state, forced != .loading, forced != card.phase {
            terminal.err("asked for state '\(forced.rawValue)' but the component reached '\(card.phase.rawValue)'")
        }
        // A card still loading that gives a reason is one whose skeleton could not be drawn (its code crashed).
        let reached = card.phase == .loading && card.reason != nil ? .failed : card.phase
        let styler = terminal.styler
        var lines = [styler.apply(.dim, "\(id) · \(module) · state: \(reached.rawValue)")]
        lines += reactions.map { styler.apply(.dim, SafeText.visible($0)) }
        let drawn = terminal.measuring {
            lines
                + (card.block.map { CardRenderer.lines(for: $0, width: terminal.cardWidth, styler: styler) }
                    ?? [styler.apply(.error, "(hidden: \(card.reason ?? "nothing to draw"))")])
        }
        terminal.out(drawn.map { $0 + "\n" }.joined())
        await reprinted(drawn, block: card.block, above: lines, terminal: terminal)
        return reached
    }

    /// Once the terminal's answers about widths are in (a second at most): the card printed again over `drawn`
    /// when they measure it otherwise, so its border is where the terminal draws the last column.
    private func reprinted(_ drawn: [String], block: Block?, above: [String], terminal: Terminal) async {
        await terminal.widthsSettled()
        defer { terminal.restore() }
        guard let block, !terminal.widths.agreesWithUnicode else { return }
        let again = terminal.measuring {
            above + CardRenderer.lines(for: block, width: terminal.cardWidth, styler: terminal.styler)
        }
        guard again != drawn else { return }
        let up = terminal.measuring { FramePainter.rows(of: drawn, columns: terminal.currentWidth()) }
        terminal.out("\u{1B}[\(up)A\r" + again.map { "\u{1B}[2K" + $0 + "\n" }.joined() + "\u{1B}[J")
    }
}
