import ArgumentParsing
import Core
import CoreHTTP
import Feed
import Foundation
import Login
import Profile
import Storage
import Tabs

/// What every command needs from the outside world: the backend, the clock and the terminal.
struct HostEnvironment: Sendable {
    let backend: any Backend
    let clock: any CourierClock
    let terminal: Terminal
    let registry: ComponentRegistry
    let environment: [String: String]
    let store: UserStore
    let login: LoginContainer
    let tabs: TabContainer

    /// Builds the backend from `--api` (or the embedded fixtures) and the clock (pinned by `COURIER_NOW`).
    static func make(
        api: String?, timeout: Duration, noColor: Bool, environment: [String: String], dataDir: String? = nil
    ) throws(UsageError) -> HostEnvironment {
        var clock: any CourierClock = SystemClock()
        if let pinned = environment["COURIER_NOW"] {
            guard let date = ISO8601DateFormatter().date(from: pinned) else {
                throw UsageError(message: "COURIER_NOW='\(pinned)' is not an ISO 8601 time like 2027-01-15T08:00:00Z")
            }
            clock = PinnedClock(pinned: date)
        }
        let backend: any Backend
        if let api {
            guard let url = URL(string: api), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw UsageError(message: "--api '\(api)' is not an http(s) URL like http://127.0.0.1:8080")
            }
            backend = HTTPBackend(base: url, timeout: timeout)
        } else {
            backend = FileBackend(rootPath: embeddedFixtures, clock: clock)
        }
        let store = UserStore(path: UserStore.defaultPath(dataDir: dataDir, environment: environment))
        let login = LoginContainer()
        let tabs = TabContainer()
        let feedBadge = TabBadge()
        do {
            // One line per plugin: the host is the only place that knows which modules plug in.
            try login.register(success: ProfilePlugin(backend: backend), id: "Profile")
            try login.register(success: FeedPlugin(backend: backend, badge: feedBadge), id: "Feed")
            try StoragePlugin.register(into: login, store: store)
            try tabs.register(TrackingTab())
            try tabs.register(ProfileTab(backend: backend))
            try tabs.register(FeedTab(backend: backend, badge: feedBadge))
        } catch { preconditionFailure("host plugin registration is inconsistent: \(error)") }
        return HostEnvironment(
            backend: backend, clock: clock, terminal: Terminal(environment: environment, noColorFlag: noColor),
            registry: HostRegistry.make(store: store, tabs: tabs), environment: environment, store: store,
            login: login, tabs: tabs)
    }

    /// The fixture tree shipped inside the app. SwiftPM copies it beside the executable; looking there first
    /// skips `Bundle.module` (CFBundle setup, a tenth of a text screen's start-up), which stays the fallback.
    static var embeddedFixtures: String {
        let executable = CommandLine.arguments[0]
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        let beside = folder + "/Courier_OrderTrackingKit.resources/Fixtures/api"
        if access(beside, F_OK) == 0 { return beside }
        return Bundle.module.resourceURL!.appendingPathComponent("Fixtures/api").path
    }
}

/// A clock whose "now" is fixed (for reproducible screens) but whose sleeps are real.
struct PinnedClock: CourierClock {
    let pinned: Date
    func now() -> Date { pinned }
    func sleep(for duration: Duration) async throws { try await SystemClock().sleep(for: duration) }
    func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        SystemClock().schedule(after: duration, action)
    }
}
