import ArgumentParsing
import Core
import Login
import Tabs
import TerminalUI

/// `login USER-ID [--password P] [--data-dir DIR]`: authenticates and runs every module's login hooks.
struct LoginCommand {
    let userID: String
    let password: String?
    let host: HostEnvironment

    func run() async -> ExitCode {
        let terminal = host.terminal
        let authenticator = Authenticator(backend: host.backend, container: host.login, clock: host.clock) {
            terminal.out($0 + "\n")
        }
        let outcome = await authenticator.logIn(userID: userID, password: password)
        if outcome.error != nil { return .fatal }
        return outcome.hookProblems.isEmpty ? .ok : .degraded
    }
}

/// `logout [--data-dir DIR]`: clears the stored user.
struct LogoutCommand {
    let host: HostEnvironment

    func run() -> ExitCode {
        do {
            let removed = try host.store.clear()
            host.terminal.out(
                removed ? "Logged out: removed \(host.store.file.path)\n" : "Not logged in; nothing to clear\n")
            return .ok
        } catch {
            host.terminal.err("cannot clear \(host.store.file.path): \(error)")
            return .fatal
        }
    }
}

/// `tabs [--select ID]`: the tab bar and the selected tab's screen.
struct TabsCommand {
    let selected: String
    let host: HostEnvironment

    func run() async -> ExitCode {
        let session = TabSession(userID: (try? host.store.storedSession())?.userID)
        let bar = TabBar(container: host.tabs)
        let items = await bar.items(for: session)
        guard let lines = await bar.screen(of: selected, session: session) else {
            host.terminal.err(
                "tab '\(selected)' is not available now; available: \(items.map(\.id).joined(separator: ", "))"
                    + suggestion(for: selected, among: items.map(\.id)))
            return .usage
        }
        let rendered = TabBar.render(items, selected: selected, styler: host.terminal.styler)
        host.terminal.out(
            ([rendered, String(repeating: "─", count: DisplayWidth.of(TabBar.render(items, selected: selected)))]
                + lines).map { $0 + "\n" }.joined())
        return .ok
    }
}

/// The host's own tab: the tracking screen, always applicable.
struct TrackingTab: TabPlugin {
    static let tabID = "tracking"
    var id: String { TrackingTab.tabID }
    var title: String { "Tracking" }
    var order: Int { 10 }
    var badge: TabBadge? { nil }
    func isApplicable(_ session: TabSession) async -> Bool { true }
    func screen(_ session: TabSession) async -> [String] {
        ["Track an order: order-tracking ORDER-ID (demo orders 1234, 5678, 9012, 4040, 7777, 3333)"]
    }
}
