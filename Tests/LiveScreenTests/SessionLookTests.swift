import Core
import CoreTesting
import Foundation
import LiveScreen
import Testing

/// Who is signed in, as the live screen looks: at the start and then every `every` on the injected clock (never the
/// wall clock), in a task of the caller's tree that ends with it; the host's answers change only the console's bar.
@Suite struct SessionLookTests {
    static let signedOut = [ConsoleTab(id: "tracking", title: "Tracking")]
    static let signedIn = [
        ConsoleTab(id: "tracking", title: "Tracking"), ConsoleTab(id: "profile", title: "Profile"),
        ConsoleTab(id: "feed", title: "Feed"), ConsoleTab(id: "signout", title: "Sign out", confirmation: "Sign out?"),
    ]

    @Test func itLooksAtTheStartAndThenAtEveryTickOfTheClockUntilCancelled() async {
        let clock = VirtualClock()
        let looks = Locked(0)
        let tabs = ConsoleTabs(open: { _ in [] }, look: { _ in looks.withLock { $0 += 1 } }, every: .milliseconds(250))
        let following = clock.start { await tabs.follow(on: clock) { _ in } }
        await clock.settle()
        #expect(looks.withLock { $0 } == 1, "at the start")
        clock.advance(by: .milliseconds(249))
        await clock.settle()
        #expect(looks.withLock { $0 } == 1)
        clock.advance(by: .milliseconds(1))
        await clock.settle()
        #expect(looks.withLock { $0 } == 2, "a quarter second later, on the clock")
        following.cancel()
        await following.value
        #expect(ConsoleTabs.none.every == nil, "a host without tabs never looks")
    }

    @Test func aSignInIsShownABadgeChangesTheBarAndAnotherUserReopensTheOpenTab() {
        var console = ScreenConsole()
        #expect(console.reduce(.answered(.tabs(Self.signedOut, user: nil))) == ConsoleStep())
        #expect(console.reduce(.answered(.tabs(Self.signedOut, user: nil))) == ConsoleStep(redraws: false))
        _ = console.reduce(.answered(.tabs(Self.signedIn, user: "1234")))
        #expect(console.tabs.map(\.id) == ["tracking", "profile", "feed", "signout"])
        var badged = Self.signedIn
        badged[2] = ConsoleTab(id: "feed", title: "Feed", badge: "3")
        #expect(console.reduce(.answered(.tabs(badged, user: "1234"))) == ConsoleStep())
        #expect(console.tabs[2].badge == "3")
        #expect(console.take([.right]) == [.open(tab: "profile")])
        _ = console.reduce(.answered(.opened(tab: "profile", lines: ["Ada"])))
        // Someone else signed in meanwhile: Profile stays selected and is fetched again, for them.
        #expect(console.reduce(.answered(.tabs(Self.signedIn, user: "5678"))) == ConsoleStep(.open(tab: "profile")))
        #expect(console.selectedTab?.id == "profile")
        _ = console.reduce(.answered(.tabs(Self.signedOut, user: nil)))
        #expect(console.selected == 0 && console.body == nil, "Profile is gone: the cards")
    }
}
