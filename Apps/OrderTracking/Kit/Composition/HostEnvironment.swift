import ArgumentParsing
import ComponentWorkers
import Core
import CoreHTTP
import Feed
import FixtureBackend
import Foundation
import HostComposition
import HostIO
import LiveScreen
import Login
import Profile
import ScreenRuntime
import ScreenSinks
import Storage
import Tabs

/// The options every command's host is built from, read from the command line once.
struct HostOptions: Sendable {
    /// `--api URL`, or nil for the embedded demo backend.
    var api: String?
    /// `--cacert FILE`.
    var caFile: String?
    /// `--timeout SECONDS`: each load's deadline, and the HTTP transport's.
    var timeout: Duration = .seconds(5)
    /// `--data-dir DIR`.
    var dataDir: String?
    /// `--record FILE` / `--replay FILE` (tracking only).
    var recording = RecordingFiles(record: nil, replay: nil)
    /// `--new-attempt`: the first send of the run replaces an unsettled attempt to the same place.
    var newAttempt = false
    /// `--attempt-retention SECONDS`: how long a settled attempt answers the same request again.
    var retention = AttemptFiles.defaultRetention
}

/// The composition root: what every command needs from the outside world (the backend, the clock, the
/// terminal) and the squads' plugins wired to it, built once per run.
struct HostEnvironment: Sendable {
    let backend: any Backend
    let clock: any CourierClock
    /// Each load's deadline (`--timeout`).
    let timeout: Duration
    let terminal: Terminal
    let registry: ComponentRegistry
    let environment: [String: String]
    let store: UserStore
    let login: LoginContainer
    let tabs: TabContainer
    /// Where the attempts of a person's actions are kept until their outcome is known: the data folder, or under
    /// `--replay` the recording's own.
    let attempts: any AttemptLedger
    /// The squads' worker processes (order-tracking); nil in in-process tests of the host.
    let workers: WorkerPool?
    /// Where the cards' squad code runs: each module's worker, or this process.
    var runner: any ComponentRunner { workers ?? InProcess() }

    /// Builds the backend from `--api` (or the embedded fixtures), wrapped by `--record`/`--replay`, the clock
    /// (pinned by `COURIER_NOW`, unless one is `given`) and the plugins talking to that backend.
    static func make(
        _ options: HostOptions, environment: [String: String], terminal: Terminal,
        clock given: (any CourierClock)? = nil, workers: WorkerPool?
    ) throws(UsageError) -> HostEnvironment {
        let (api, caFile, timeout, dataDir) = (options.api, options.caFile, options.timeout, options.dataDir)
        if let pinned = environment["COURIER_NOW"], PinnedClock.instant(pinned) == nil {
            throw UsageError(message: "COURIER_NOW='\(pinned)' is not an ISO 8601 time like 2027-01-15T08:00:00.5Z")
        }
        let clock = given ?? runClock(environment)
        if options.recording.replay != nil, let given = api.map({ _ in "--api" }) ?? caFile.map({ _ in "--cacert" }) {
            throw UsageError(message: "--replay is the backend; drop \(given)")
        }
        let backend = try options.recording.backend(clock: clock, terminal: terminal) { () throws(UsageError) in
            try live(api: api, caFile: caFile, timeout: timeout, clock: clock)
        }
        if dataDir == "" { throw UsageError(message: "--data-dir is empty; give a folder, e.g. --data-dir ~/.courier") }
        let store = UserStore(path: UserStore.defaultPath(dataDir: dataDir, environment: environment) ?? "")
        let (login, tabs, registry): (LoginContainer, TabContainer, ComponentRegistry)
        do {
            (login, tabs, registry) = try compose(backend: backend, store: store, workers: workers, clock: clock)
        } catch {
            // `run` refuses a conflict before any command (exit 1); a host made without it says it here.
            throw UsageError(message: "the host's composition is inconsistent: \(error)")
        }
        let attempts: any AttemptLedger =
            (backend as? ReplayBackend).map(ReplayedAttempts.init)
            ?? AttemptFiles(
                dataFolder: store.path.isEmpty ? nil : store.path,
                backend: api.flatMap { try? HTTPBackend.baseURL($0) }.map(AttemptFiles.backend) ?? "embedded",
                newAttempt: options.newAttempt, clock: clock, retention: options.retention)
        return HostEnvironment(
            backend: backend, clock: clock, timeout: timeout, terminal: terminal, registry: registry,
            environment: environment, store: store, login: login, tabs: tabs, attempts: attempts, workers: workers)
    }

    /// The run's clock when none is given: the system's, or from `COURIER_NOW` on (a `COURIER_NOW` that does not
    /// read is refused by ``make(_:environment:terminal:clock:workers:)``). Made once a run: the workers' supervisor
    /// counts on the same clock the screen runs on.
    static func runClock(_ environment: [String: String]) -> any CourierClock {
        environment["COURIER_NOW"].flatMap(PinnedClock.instant).map { PinnedClock(pinned: $0) } ?? SystemClock()
    }

    /// The backend `--api` names (over HTTP, trusting `--cacert`), or the embedded demo's fixtures.
    private static func live(api: String?, caFile: String?, timeout: Duration, clock: any CourierClock)
        throws(UsageError) -> any Backend
    {
        guard let api else {
            if caFile != nil { throw UsageError(message: "--cacert only applies to an https --api") }
            return embeddedBackend(clock: clock)
        }
        let url: URL
        do { url = try HTTPBackend.baseURL(api) } catch { throw UsageError(message: "--api '\(api)' \(error.reason)") }
        if let caFile, access(caFile, R_OK) != 0 {
            throw UsageError(message: "--cacert '\(caFile)' cannot be read; give a PEM file of certificates")
        }
        return HTTPBackend(base: url, timeout: timeout, caFile: caFile)
    }

    /// The login hooks, the tabs and the registry, all talking to `backend` (so a recording or a replay sees the
    /// Profile and Feed fetches too). Each hook runs where ``HostRegistry/hooks`` says: with workers, a worker hook's
    /// line and its tab's params come back from its squad's worker; without, it runs here on the same params. Two
    /// lines under one id are a ``HostConflict`` (``HostRegistry/conflict`` checks it before any command runs).
    static func compose(backend: any Backend, store: UserStore, workers: WorkerPool?, clock: any CourierClock)
        throws(HostConflict) -> (LoginContainer, TabContainer, ComponentRegistry)
    {
        let (login, tabs) = (LoginContainer(), TabContainer())
        // The params a tab publishes (its badge), shared by the tab and the hooks that name it.
        let params = ["feed": TabParams()]
        do {
            for hook in HostRegistry.hooks {
                var plugin: any PostLoginSuccessPlugin
                switch hook.runs {
                case .worker(let make):
                    let shared = hook.tab.flatMap { params[$0] }
                    plugin = make(backend, shared ?? TabParams())
                    if let workers {
                        plugin = RemoteLoginHook(
                            plugin, published: { for (key, value) in $0 { shared?.set(key, value) } }
                        ) {
                            try await workers.errand(hook.id, of: hook.id, $0, backend: backend, now: clock.now())
                        }
                    }
                case .host(let make): plugin = make(store)
                }
                try login.register(success: plugin, id: hook.id)
                if let failure = plugin as? any PostLoginFailurePlugin {
                    try login.register(failure: failure, id: hook.id)
                }
            }
            let feed = FeedTab(backend: backend, params: params["feed"] ?? TabParams())
            for tab: any TabPlugin in [TrackingTab(), ProfileTab(backend: backend), feed, SignOutTab(store: store)] {
                try tabs.register(tab)
            }
        } catch { throw HostConflict(description: "the login hooks or the tabs: \(error)") }
        return (login, tabs, try HostRegistry.make(store: store, tabs: tabs))
    }

    /// The card the live screen draws as its tab bar, above the others rather than among them.
    static let barCard: ComponentID = TabsComponent.id

    /// `--analytics FILE` for `order` (ScreenSinks' analytics log), or nil without the option.
    func analytics(_ path: String?, subject: [String: String]) throws(UsageError) -> AnalyticsLog? {
        try AnalyticsLog.open(path, subject: subject, registry: registry, clock: clock, terminal: terminal)
    }

    /// The store, or a usage error when there is nowhere to keep a user (no --data-dir, HOME or XDG_DATA_HOME).
    func writableStore() throws(UsageError) -> UserStore {
        guard !store.path.isEmpty else {
            throw UsageError(
                message: "nowhere to keep the signed-in user: HOME and XDG_DATA_HOME are empty; pass --data-dir DIR")
        }
        return store
    }
}
