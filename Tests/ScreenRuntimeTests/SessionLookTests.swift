import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// The tab bar and the signed-in user as the screen's state, on the test store: the reducer asks the host who is
/// signed in at the start and then at every look on the runtime's clock, and the host's answers (a sign-in made by
/// another process, a badge) change the bar only through the reducer. Every look is asserted; time moves by hand.
@Suite struct SessionLookTests {
    typealias Rules = ScreenReducerTests
    static let signedOut = [ConsoleTab(id: "tracking", title: "Tracking")]
    static let signedIn = [
        ConsoleTab(id: "tracking", title: "Tracking"), ConsoleTab(id: "profile", title: "Profile"),
        ConsoleTab(id: "feed", title: "Feed"), ConsoleTab(id: "signout", title: "Sign out", confirmation: "Sign out?"),
    ]
    static let badged = [
        signedIn[0], signedIn[1], ConsoleTab(id: "feed", title: "Feed", badge: "3"), signedIn[3],
    ]

    /// A watched one-card screen that looks at the session every quarter second, started and told the bar.
    static func started() -> ScreenReducerTests.Store {
        var settings = ScreenSettings(ids: [:])
        (settings.watch, settings.every, settings.sessionLook) = (true, .seconds(10), .milliseconds(250))
        let store = TestStore(
            ScreenState(cards: [Rules.card("order")], started: Rules.start, settings: settings), at: Rules.start
        ) {
            $0.reduce($1, at: $2)
        }
        store.send(
            .start(loading: [0]),
            effects: [
                .trace("order: start → loading"), .draw(.first), .request(.lookAtSession),
                .load(card: 0, generation: 1, within: .seconds(5)), .wake(at: Rules.at(0.25)),
            ]
        ) { screen in
            (screen.cards[0].generation, screen.cards[0].loading) = (1, true)
            (screen.session.next, screen.wakeAt) = (Rules.at(0.25), Rules.at(0.25))
        }
        store.send(.answered(.tabs(signedOut, user: nil)), effects: [.draw(.changed)]) {
            $0.console.tabsChanged(to: signedOut, user: nil)
        }
        // The same bar again (a look that found nothing new): nothing changes, nothing is drawn.
        store.send(.answered(.tabs(signedOut, user: nil)), effects: [])
        return store
    }

    @Test func aSignInIsNoticedAtTheNextLookAndABadgeChangesTheBar() {
        let store = Self.started()
        store.advance(by: .milliseconds(250))
        store.send(.tick, effects: [.request(.lookAtSession), .wake(at: Rules.at(0.5))]) { screen in
            (screen.session.next, screen.wakeAt) = (Rules.at(0.5), Rules.at(0.5))
        }
        store.send(.answered(.tabs(Self.signedIn, user: "1234")), effects: [.draw(.changed)]) {
            $0.console.tabsChanged(to: Self.signedIn, user: "1234")
        }
        #expect(store.state.frame(at: store.now).console.tabs.map(\.id) == ["tracking", "profile", "feed", "signout"])
        store.send(.answered(.tabs(Self.badged, user: "1234")), effects: [.draw(.changed)]) {
            $0.console.tabsChanged(to: Self.badged, user: "1234")
        }
        #expect(store.state.frame(at: store.now).console.tabs[2].badge == "3")
        // The card answers: the screen settles and the next wake-up is still the next look, asked for once.
        store.send(
            .loaded(card: 0, generation: 1, Rules.answer("order")),
            effects: [
                .moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            Rules.shows("order", 0, at: store.now)(&screen)
            (screen.settledAt, screen.nextRound) = (store.now, Rules.at(10.25))
        }
        store.advance(by: .milliseconds(250))
        store.send(.tick, effects: [.request(.lookAtSession), .wake(at: Rules.at(0.75))]) { screen in
            (screen.session.next, screen.wakeAt) = (Rules.at(0.75), Rules.at(0.75))
        }
    }

    @Test func anotherUserSigningInReopensTheOpenTabAndSigningOutGoesBackToTheCards() {
        let store = Self.started()
        store.send(.answered(.tabs(Self.signedIn, user: "1234")), effects: [.draw(.changed)]) {
            $0.console.tabsChanged(to: Self.signedIn, user: "1234")
        }
        store.send(.keys([.right]), effects: [.request(.open(tab: "profile")), .draw(.changed)]) {
            _ = $0.console.handle(.right)
        }
        store.send(.answered(.opened(tab: "profile", lines: ["Ada"])), effects: [.draw(.changed)]) {
            $0.console.body = ["Ada"]
        }
        // Someone else signed in meanwhile: Profile stays selected and is fetched again, for them.
        store.send(
            .answered(.tabs(Self.signedIn, user: "5678")), effects: [.request(.open(tab: "profile")), .draw(.changed)]
        ) { $0.console.tabsChanged(to: Self.signedIn, user: "5678") }
        #expect(store.state.console.selectedTab?.id == "profile")
        store.send(.answered(.tabs(Self.signedOut, user: nil)), effects: [.draw(.changed)]) {
            $0.console.tabsChanged(to: Self.signedOut, user: nil)
        }
        #expect(store.state.console.selected == 0 && store.state.console.body == nil, "Profile is gone: the cards")
    }
}
