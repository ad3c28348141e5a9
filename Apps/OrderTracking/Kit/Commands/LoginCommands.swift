import ArgumentParsing
import Login
import SafeText
import Tabs

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
            backend: host.backend, container: host.login, clock: host.clock,
            say: { terminal.out(SafeText.visible($0) + "\n") },
            note: { if verbose { terminal.out(SafeText.visible($0) + "\n") } }, warn: { terminal.err($0) })
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

/// The host's own tab: the tracking screen, always applicable.
struct TrackingTab: TabPlugin {
    static let tabID = "tracking"
    var id: String { TrackingTab.tabID }
    var title: String { "Tracking" }
    var order: Int { 10 }
    func isApplicable(_ session: TabSession) -> Bool { true }
    func open(_ session: TabSession) async -> TabOpening {
        .screen(["Track an order: order-tracking ORDER-ID (demo orders 1234, 5678, 9012, 4040, 7777, 3333, 4242)"])
    }
}
