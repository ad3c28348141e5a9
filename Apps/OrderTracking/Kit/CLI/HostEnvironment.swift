import ArgumentParsing
import Core
import CoreHTTP
import Feed
import FixtureBackend
import Foundation
import HostIO
import Login
import Profile
import Promo
import SafeText
import ScreenSinks
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
    /// The Promo card's input: `--promo CODE`, or what a person types on the live screen.
    let promo: PromoInput

    /// Builds the backend from `--api` (or the embedded fixtures) and the clock (pinned by `COURIER_NOW`, unless
    /// one is `given`).
    static func make(
        api: String?, caFile: String? = nil, timeout: Duration, environment: [String: String],
        dataDir: String? = nil, terminal: Terminal, clock given: (any CourierClock)? = nil
    ) throws(UsageError) -> HostEnvironment {
        var clock: any CourierClock = given ?? SystemClock()
        if let pinned = environment["COURIER_NOW"] {
            guard let date = PinnedClock.instant(pinned) else {
                throw UsageError(message: "COURIER_NOW='\(pinned)' is not an ISO 8601 time like 2027-01-15T08:00:00.5Z")
            }
            if given == nil { clock = PinnedClock(pinned: date) }
        }
        let backend: any Backend
        if let api {
            let url: URL
            do { url = try HTTPBackend.baseURL(api) } catch {
                throw UsageError(message: "--api '\(api)' \(error.reason)")
            }
            if let caFile, access(caFile, R_OK) != 0 {
                throw UsageError(message: "--cacert '\(caFile)' cannot be read; give a PEM file of certificates")
            }
            backend = HTTPBackend(base: url, timeout: timeout, caFile: caFile)
        } else if caFile != nil {
            throw UsageError(message: "--cacert only applies to an https --api")
        } else {
            backend = FileBackend(rootPath: embeddedFixtures, clock: clock)
        }
        if dataDir == "" { throw UsageError(message: "--data-dir is empty; give a folder, e.g. --data-dir ~/.courier") }
        let store = UserStore(path: UserStore.defaultPath(dataDir: dataDir, environment: environment) ?? "")
        let promo = PromoInput()
        let (login, tabs, registry) = plugins(backend: backend, store: store, promo: promo)
        return HostEnvironment(
            backend: backend, clock: clock, terminal: terminal, registry: registry, environment: environment,
            store: store, login: login, tabs: tabs, promo: promo)
    }

    /// The login hooks, the tabs and the registry, all talking to `backend`: built again whenever the backend
    /// changes, so a recording or a replay sees the Profile and Feed fetches too.
    private static func plugins(backend: any Backend, store: UserStore, promo: PromoInput) -> (
        LoginContainer, TabContainer, ComponentRegistry
    ) {
        let login = LoginContainer()
        let tabs = TabContainer()
        let feedParams = TabParams()
        do {
            // One line per plugin: the host is the only place that knows which modules plug in.
            try login.register(success: ProfilePlugin(backend: backend), id: "Profile")
            try login.register(success: FeedPlugin(backend: backend, params: feedParams), id: "Feed")
            try StoragePlugin.register(into: login, store: store)
            try tabs.register(TrackingTab())
            try tabs.register(ProfileTab(backend: backend))
            try tabs.register(FeedTab(backend: backend, params: feedParams))
            try tabs.register(SignOutTab(store: store))
        } catch { preconditionFailure("host plugin registration is inconsistent: \(error)") }
        return (login, tabs, HostRegistry.make(store: store, tabs: tabs, promo: promo))
    }

    /// The same host talking to another backend (a recording or a replay of this one).
    func with(backend: any Backend) -> HostEnvironment {
        let (login, tabs, registry) = HostEnvironment.plugins(backend: backend, store: store, promo: promo)
        return HostEnvironment(
            backend: backend, clock: clock, terminal: terminal, registry: registry, environment: environment,
            store: store, login: login, tabs: tabs, promo: promo)
    }

    /// The tab bar for the live screen: the plugins that apply to whoever is signed in now.
    func consoleTabs() -> ConsoleTabs {
        let (bar, store) = (TabBar(container: tabs), store)
        let session = { @Sendable in store.tabSession }
        return ConsoleTabs(
            items: {
                bar.items(for: session()).map {
                    ConsoleTab(id: $0.id, confirmation: bar.confirmation(for: $0.id, session: session()))
                }
            },
            bar: { TabBar.render(bar.items(for: session()), selected: $0) },
            open: { await bar.openedLines($0, session: session()) ?? [] })
    }

    /// `--analytics FILE` for `order` (ScreenSinks' analytics log), or nil without the option.
    func analytics(_ path: String?, order: String) throws(UsageError) -> AnalyticsLog? {
        try AnalyticsLog.open(path, order: order, registry: registry, clock: clock, terminal: terminal)
    }

    /// The store, or a usage error when there is nowhere to keep a user (no --data-dir, HOME or XDG_DATA_HOME).
    func writableStore() throws(UsageError) -> UserStore {
        guard !store.path.isEmpty else {
            throw UsageError(
                message: "nowhere to keep the signed-in user: HOME and XDG_DATA_HOME are empty; pass --data-dir DIR")
        }
        return store
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
