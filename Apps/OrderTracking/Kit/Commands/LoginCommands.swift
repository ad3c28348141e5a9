import ArgumentParsing
import Core
import Login
import Tabs
import TerminalUI

/// `login USER-ID [--password P] [--data-dir DIR]`: authenticates and runs every module's login hooks.
/// stdout carries exactly the reference lines; what the hooks found goes there too only with `--verbose`, and
/// every problem goes to stderr with what to do next.
struct LoginCommand {
    let userID: String
    let password: String?
    let verbose: Bool
    let host: HostEnvironment

    func run() async -> ExitCode {
        do { _ = try host.writableStore() } catch {
            host.terminal.err("order-tracking: \(error.message)")
            return .usage
        }
        let terminal = host.terminal
        let verbose = verbose
        let authenticator = Authenticator(
            backend: host.backend, container: host.login, clock: host.clock, say: { terminal.out($0 + "\n") },
            note: { if verbose { terminal.out($0 + "\n") } }, warn: { terminal.err($0) })
        let outcome = await authenticator.logIn(userID: userID, password: password)
        if let error = outcome.error {
            terminal.err("login failed: \(error.advice)")
            return .fatal
        }
        return outcome.hookProblems.isEmpty ? .ok : .degraded
    }
}

/// `logout [--data-dir DIR]`: clears the stored user.
struct LogoutCommand {
    let host: HostEnvironment

    func run() -> ExitCode {
        do {
            let removed = try host.writableStore().clear()
            host.terminal.out(
                removed ? "Logged out: removed \(host.store.file.path)\n" : "Not logged in; nothing to clear\n")
            return .ok
        } catch let error as UsageError {
            host.terminal.err("order-tracking: \(error.message)")
            return .usage
        } catch {
            host.terminal.err("\(error)")
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
