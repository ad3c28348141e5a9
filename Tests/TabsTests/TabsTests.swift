import Core
import CoreTesting
import Tabs
import Testing

struct FakeTab: TabPlugin {
    let id: String
    let title: String
    let order: Int
    var badge: TabBadge?
    var needsUser = false
    func isApplicable(_ session: TabSession) async -> Bool { !needsUser || session.userID != nil }
    func screen(_ session: TabSession) async -> [String] { ["\(title) screen"] }
}

final class Renders: Sendable {
    let lines = Locked<[String]>([])
}

@Suite struct TabsTests {
    func container(badge: TabBadge = TabBadge()) throws -> TabContainer {
        let container = TabContainer()
        try container.register(FakeTab(id: "feed", title: "Feed", order: 30, badge: badge, needsUser: true))
        try container.register(FakeTab(id: "tracking", title: "Tracking", order: 10))
        try container.register(FakeTab(id: "profile", title: "Profile", order: 20, needsUser: true))
        return container
    }

    @Test func orderingAndApplicability() async throws {
        let bar = TabBar(container: try container())
        #expect(await bar.items(for: TabSession(userID: nil)).map(\.id) == ["tracking"])
        let signedIn = await bar.items(for: TabSession(userID: "1"))
        #expect(signedIn.map(\.id) == ["tracking", "profile", "feed"])
        #expect(TabBar.render(signedIn, selected: "tracking") == "▸ Tracking   Profile   Feed")
        #expect(await bar.screen(of: "feed", session: TabSession(userID: nil)) == nil)
        #expect(await bar.screen(of: "profile", session: TabSession(userID: "1")) == ["Profile screen"])
    }

    @Test func aBadgeChangeRerendersTheBar() async throws {
        let badge = TabBadge()
        let bar = TabBar(container: try container(badge: badge))
        let renders = Renders()
        await bar.observe(TabSession(userID: "1")) { items in
            renders.lines.withLock { $0.append(TabBar.render(items, selected: "feed")) }
        }
        badge.set("3")
        badge.set("3")
        badge.set(nil)
        bar.stopObserving()
        badge.set("9")
        #expect(
            renders.lines.withLock { $0 } == [
                "Tracking   Profile   ▸ Feed", "Tracking   Profile   ▸ Feed (3)", "Tracking   Profile   ▸ Feed",
            ])
    }

    @Test func duplicateTabIdsAreRefused() throws {
        let container = try container()
        #expect(throws: PluginError.duplicate(id: "feed", point: "tab bar")) {
            try container.register(FakeTab(id: "feed", title: "Other", order: 1))
        }
    }

    @Test func theTabsCardLoadsUntilEveryTabHasAnswered() async throws {
        let harness = ComponentHarness(
            TabsComponent(container: try container(), selected: "tracking") { TabSession(userID: "1") })
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.blocks.first??.isSkeleton == true)
        #expect(harness.card(width: 40).contains("│ ▸ Tracking   Profile   Feed          │"))
    }
}
