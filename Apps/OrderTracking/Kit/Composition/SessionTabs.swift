import Core
import LiveScreen
import Storage
import Tabs

/// The host's tab bar as the live screen's console hears of it: at each look (every ``every`` on the run's clock)
/// it reads who is signed in from the store, and when that changed it observes the tabs that apply to them and
/// loads their content, so the console hears the new bar and every badge change as
/// ``ConsoleAnswer/tabs(_:user:)``. The live screen and `tabs --watch` share it.
final class SessionTabs: Sendable {
    private let bar: TabBar
    private let store: UserStore
    /// The session whose tabs are observed, and the loading of their content.
    private let following = Locked((session: TabSession?.none, loading: Task<Void, Never>?.none))

    /// How often a watched screen with a tab bar looks at who is signed in (`order-tracking login` and `logout`
    /// run in other processes).
    static let every: Duration = .milliseconds(250)

    /// Tabs from `container` for whoever `store` says is signed in.
    init(container: TabContainer, store: UserStore) { (bar, self.store) = (TabBar(container: container), store) }

    deinit { stop() }

    /// The live screen's side of it: a tab's content and the looks.
    var console: ConsoleTabs {
        ConsoleTabs(open: { [self] in await open($0) }, look: { [self] in look($0) }, every: Self.every)
    }

    /// Looks at who is signed in; when it changed since the last look, `tell` hears the bar for them now and
    /// again whenever one of their tabs' params (a badge) changes, and their tabs' content is loaded.
    func look(_ tell: @escaping @Sendable (ConsoleAnswer) -> Void) {
        let session = store.tabSession
        following.withLock { following in
            guard following.session != session else { return }
            following.loading?.cancel()
            following.session = session
            bar.observe(session) { [bar] _ in tell(.tabs(Self.items(bar, session), user: session.userID)) }
            following.loading = Task.placed { [bar] in await bar.load(session) }
        }
    }

    /// Tab `id` as the live screen shows it, for whoever is signed in now.
    func open(_ id: String) async -> [String] { await bar.openedLines(id, session: store.tabSession) ?? [] }

    /// Stops observing and loading.
    func stop() {
        following.withLock { $0.loading?.cancel() }
        bar.stopObserving()
    }

    private static func items(_ bar: TabBar, _ session: TabSession) -> [ConsoleTab] {
        bar.items(for: session).map {
            ConsoleTab(
                id: $0.id, title: $0.title, badge: $0.badge,
                confirmation: bar.confirmation(for: $0.id, session: session))
        }
    }
}
