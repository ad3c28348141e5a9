import ArgumentParsing
import SafeText
import Tabs
import TerminalUI

/// `tabs`: the tab bar and what the selected tab does (its screen, or an action such as signing out).
/// `--watch`: the bar follows the signed-in user and every tab's params until a signal, looked at as the live
/// screen looks (``ConsoleTabs/follow(on:_:)`` on the host's clock): it re-renders when a badge changes (the Feed's
/// count as its items arrive) and asks again which tabs apply when someone signs in or out (another
/// `order-tracking login` or `logout` on the same `--data-dir`).
struct TabsCommand {
    let selected: String
    let watch: Bool
    let host: HostEnvironment

    func run() async -> ExitCode {
        let bar = TabBar(container: host.tabs)
        if watch { return await follow() }
        let session = host.store.tabSession
        await bar.load(session)
        let items = bar.items(for: session)
        guard let opening = await bar.open(selected, session: session) else {
            host.terminal.err(
                "tab '\(selected)' is not available now; available: \(items.map(\.id).joined(separator: ", "))"
                    + suggestion(for: selected, among: items.map(\.id)))
            return .usage
        }
        switch opening {
        case .screen(let lines):
            let plainBar = TabBar.render(items, selected: selected)
            let rendered = TabBar.render(items, selected: selected, styler: host.terminal.styler)
            let rule = String(repeating: "─", count: DisplayWidth.of(plainBar))
            host.terminal.out(([rendered, rule] + lines.map(SafeText.visible)).map { $0 + "\n" }.joined())
            return .ok
        case .performed(let message):
            host.terminal.out(SafeText.visible(message) + "\n")
            return .ok
        case .failed(let message):
            host.terminal.err(message)
            return .fatal
        }
    }

    /// Redraws the bar whenever what it shows changes, until a signal ends the process (130, 143 or 129).
    private func follow() async -> ExitCode {
        let tabs = SessionTabs(container: host.tabs, store: host.store)
        await tabs.console.show(selected: selected, on: host.terminal, clock: host.clock)
        tabs.stop()
        return .ok
    }
}
