import Core
import CoreTesting
import Feed
import Login
import Tabs
import Testing

@Suite struct FeedTests {
    let backend = CannedBackend(
        ["users/1234/feed.json": .json(#"{"items": [{"title": "A"}, {"title": "B"}]}"#)], clock: VirtualClock())

    @Test func theHookCountsItemsAndUpdatesTheBadge() async throws {
        let badge = TabBadge()
        let plugin = FeedPlugin(backend: backend, badge: badge)
        let session = LoginSession(userID: "1234", name: "Sara")
        #expect(plugin.announcement(for: session) == "Fetching user feed with id 1234...")
        #expect(try await plugin.didLogIn(session) == "Feed: 2 items")
        #expect(badge.value == "2")
    }

    @Test func theTabShowsItemsForASignedInUser() async {
        let tab = FeedTab(backend: backend)
        #expect(await tab.isApplicable(TabSession(userID: nil)) == false)
        #expect(await tab.isApplicable(TabSession(userID: "1234")))
        #expect(tab.badge?.value == "2")
        #expect(await tab.screen(TabSession(userID: "1234")) == ["• A", "• B"])
    }
}
