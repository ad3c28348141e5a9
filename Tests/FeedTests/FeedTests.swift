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
        let params = TabParams()
        let plugin = FeedPlugin(backend: backend, params: params)
        let session = LoginSession(userID: "1234", name: "Sara")
        #expect(plugin.announcement(for: session) == "Fetching user feed with id 1234...")
        #expect(try await plugin.didLogIn(session) == "Feed: 2 items")
        #expect(params.values == [TabParams.badge: "2"])
    }

    @Test func theTabShowsItemsForASignedInUser() async {
        let tab = FeedTab(backend: backend)
        #expect(tab.isApplicable(TabSession(userID: nil)) == false)
        #expect(tab.isApplicable(TabSession(userID: "1234")))
        #expect(tab.params.values.isEmpty, "asking whether the tab applies fetches nothing and changes nothing")
        #expect(backend.requests.isEmpty)
        await tab.load(TabSession(userID: "1234"))
        #expect(tab.params.values[TabParams.badge] == "2")
        #expect(await tab.open(TabSession(userID: "1234")) == .screen(["• A", "• B"]))
        await tab.load(TabSession(userID: nil))
        #expect(tab.params.values[TabParams.badge] == nil, "signed out: no badge")
    }
}
