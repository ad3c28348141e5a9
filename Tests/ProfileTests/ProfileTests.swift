import Core
import CoreTesting
import Login
import Profile
import Tabs
import Testing

@Suite struct ProfileTests {
    let backend = CannedBackend(
        ["users/1234/profile.json": .json(#"{"name": "Sara", "city": "Riyadh", "member_since": "2021"}"#)],
        clock: VirtualClock())

    @Test func theHookAnnouncesAndSummarises() async throws {
        let plugin = ProfilePlugin(backend: backend)
        let session = LoginSession(userID: "1234", name: "Sara")
        #expect(plugin.announcement(for: session) == "Fetching user profile with id 1234...")
        #expect(try await plugin.didLogIn(session) == "Profile: Sara, Riyadh")
        await #expect(throws: BackendError.notFound(path: "users/9/profile.json")) {
            try await plugin.didLogIn(LoginSession(userID: "9", name: "X"))
        }
    }

    @Test func theTabAppliesOnlyToASignedInUser() async {
        let tab = ProfileTab(backend: backend)
        #expect(tab.isApplicable(TabSession(userID: nil)) == false)
        #expect(tab.isApplicable(TabSession(userID: "1234")))
        #expect(
            await tab.open(TabSession(userID: "1234")) == .screen(["Sara", "City: Riyadh", "Member since 2021"]))
    }
}
