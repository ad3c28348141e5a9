import Core
import CoreTesting
import Tabs
import Testing

/// A tab whose content "loads" by publishing a badge, so the bar's observation can be seen.
struct FakeTab: TabPlugin {
    let id: String
    let title: String
    let order: Int
    var params = TabParams()
    var needsUser = false
    var loadedBadge: String?
    func isApplicable(_ session: TabSession) -> Bool { !needsUser || session.userID != nil }
    func load(_ session: TabSession) async { if let loadedBadge { params.set(TabParams.badge, loadedBadge) } }
    func open(_ session: TabSession) async -> TabOpening { .screen(["\(title) screen"]) }
}

/// A tab that publishes nothing and keeps every default.
struct PlainTab: TabPlugin {
    var id: String { "plain" }
    var title: String { "Plain" }
    var order: Int { 50 }
    func isApplicable(_ session: TabSession) -> Bool { true }
    func open(_ session: TabSession) async -> TabOpening { .performed("did it") }
}

final class Renders: Sendable {
    let lines = Locked<[String]>([])
}

@Suite struct TabsTests {
    func container(feed: TabParams = TabParams(), feedLoads badge: String? = nil) throws -> TabContainer {
        let container = TabContainer()
        try container.register(
            FakeTab(id: "feed", title: "Feed", order: 30, params: feed, needsUser: true, loadedBadge: badge))
        try container.register(FakeTab(id: "tracking", title: "Tracking", order: 10))
        try container.register(FakeTab(id: "profile", title: "Profile", order: 20, needsUser: true))
        return container
    }

    @Test func orderingAndApplicability() async throws {
        let bar = TabBar(container: try container())
        #expect(bar.items(for: TabSession(userID: nil)).map(\.id) == ["tracking"])
        let signedIn = bar.items(for: TabSession(userID: "1"))
        #expect(signedIn.map(\.id) == ["tracking", "profile", "feed"])
        #expect(TabBar.render(signedIn, selected: "tracking") == "▸ Tracking   Profile   Feed")
        #expect(await bar.open("feed", session: TabSession(userID: nil)) == nil)
        #expect(await bar.open("profile", session: TabSession(userID: "1")) == .screen(["Profile screen"]))
    }

    @Test func aParamsChangeRerendersTheBarAndAnotherSessionReplacesTheObservation() async throws {
        let feed = TabParams()
        let bar = TabBar(container: try container(feed: feed))
        let renders = Renders()
        let record: @Sendable ([TabItem]) -> Void = { items in
            renders.lines.withLock { $0.append(TabBar.render(items, selected: "tracking")) }
        }
        bar.observe(TabSession(userID: "1"), render: record)
        feed.set(TabParams.badge, "3")
        feed.set(TabParams.badge, "3")
        feed.set(TabParams.badge, nil)
        bar.observe(TabSession(userID: nil), render: record)
        feed.set(TabParams.badge, "9")
        bar.stopObserving()
        #expect(
            renders.lines.withLock { $0 } == [
                "▸ Tracking   Profile   Feed", "▸ Tracking   Profile   Feed (3)", "▸ Tracking   Profile   Feed",
                "▸ Tracking",
            ])
    }

    /// Loading belongs to the content: the bar asks applicable tabs to load, and their params follow.
    @Test func loadingTheApplicableTabsFillsTheirParams() async throws {
        let feed = TabParams()
        let bar = TabBar(container: try container(feed: feed, feedLoads: "2"))
        await bar.load(TabSession(userID: nil))
        #expect(feed.values.isEmpty, "a tab that does not apply is not loaded")
        await bar.load(TabSession(userID: "1"))
        #expect(bar.items(for: TabSession(userID: "1")).last?.badge == "2")
    }

    @Test func aTabThatPublishesNothingHasEmptyParamsAndMayPerformAnAction() async throws {
        let container = TabContainer()
        try container.register(PlainTab())
        let bar = TabBar(container: container)
        #expect(bar.items(for: TabSession(userID: nil)).first?.params == [:])
        #expect(await bar.open("plain", session: TabSession(userID: nil)) == .performed("did it"))
    }

    @Test func duplicateTabIdsAreRefused() throws {
        let container = try container()
        #expect(throws: PluginError.duplicate(id: "feed", point: "tab bar")) {
            try container.register(FakeTab(id: "feed", title: "Other", order: 1))
        }
    }

    @Test func theTabsCardLoadsUntilEveryApplicableTabHasLoaded() async throws {
        let harness = ComponentHarness(
            TabsComponent(container: try container(feedLoads: "4"), selected: "tracking") { TabSession(userID: "1") })
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.blocks.first??.isSkeleton == true)
        #expect(harness.card(width: 44).contains("│ ▸ Tracking   Profile   Feed (4)          │"))
    }
}

@Suite struct TabsCardReloadTests {
    /// Load after load the bar shows the tabs that apply to whoever is signed in now.
    @Test func eachLoadShowsTheTabsThatApplyNow() async throws {
        let container = TabContainer()
        try container.register(FakeTab(id: "tracking", title: "Tracking", order: 10))
        try container.register(FakeTab(id: "profile", title: "Profile", order: 20, needsUser: true))
        let user = Locked<String?>(nil)
        let harness = ComponentHarness(
            TabsComponent(container: container, selected: "tracking") { TabSession(userID: user.withLock { $0 }) })
        await harness.load()
        #expect(harness.info?.items.map(\.id) == ["tracking"], "signed out: no profile tab")
        user.withLock { $0 = "1234" }
        await harness.reload()
        #expect(harness.info?.items.map(\.id) == ["tracking", "profile"])
        harness.expectPhases([.loading, .info, .loading, .info])
    }
}
