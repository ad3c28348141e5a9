import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A person's keys as actions of the screen, on the test store: what is open changes in the state, and what only
/// the host can do is asked for as an effect.
@Suite struct ConsoleReducerTests {
    typealias Rules = ScreenReducerTests
    static let prompt = ConsolePrompt(
        key: "p", label: "Promo code", effect: "enter a promo code", event: "promo.entered")
    static let tabs = [ConsoleTab(id: "tracking"), ConsoleTab(id: "profile")]

    /// The two-card screen under watch, both cards shown, the second refreshing on the prompt's event.
    static func loaded() -> ScreenReducerTests.Store {
        let cards = [Rules.card("order"), Rules.card("promo", refreshesOn: ["promo.entered"])]
        let store = Rules.store(cards, watch: true, prompts: [prompt])
        store.send(
            .start(loading: [0, 1]),
            effects: [
                .trace("order: start → loading"), .trace("promo: start → loading"), .draw(.first),
                .load(card: 0, generation: 1, within: .seconds(5)), .load(card: 1, generation: 1, within: .seconds(5)),
            ]
        ) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        store.send(
            .loaded(card: 0, generation: 1, Rules.answer("order")),
            effects: [.moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed)],
            Rules.shows("order", 0, at: Rules.start))
        store.send(
            .loaded(card: 1, generation: 1, Rules.answer("promo")),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
                .wake(at: Rules.at(10)),
            ]
        ) { screen in
            screen.settledAt = store.now
            Rules.shows("promo", 1, at: Rules.start)(&screen)
            (screen.nextRound, screen.wakeAt) = (Rules.at(10), Rules.at(10))
        }
        return store
    }

    @Test func aPromptsCodeIsKeptInTheCardsStateAndItsNextLoadFollows() {
        let store = Self.loaded()
        store.send(.keys([.character("p")]), effects: [.draw(.changed)]) {
            $0.console = ScreenConsole(prompts: [Self.prompt])
            _ = $0.console.handle(.character("p"))
        }
        store.send(.keys([.character("s")]), effects: [.draw(.changed)]) {
            _ = $0.console.handle(.character("s"))
        }
        #expect(store.state.console.overlay == .prompt(key: "p", typed: "s"))
        let code = DomainEvent("promo.entered", text: "s")
        store.send(
            .keys([.enter]),
            effects: [
                .trace("event \(code): input → promo"),
                .trace("promo: asks for a refresh in 0.0s"), .draw(.changed), .draw(.settled),
                .moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            screen.settledAt = store.now
            _ = screen.console.handle(.enter)
            _ = screen.console.reduce(.settled)  // settled at once: "Looking up S…" goes
            screen.cards[1].received = [code]  // the input's one home: the card's state, read by its next load
            (screen.cards[1].generation, screen.cards[1].loading) = (2, true)
        }
        #expect(store.state.console.overlay == .none)
    }

    @Test func aTabIsOpenedByTheHostAndShownOnlyIfStillSelected() {
        let store = Self.loaded()
        store.send(.answered(.tabs(Self.tabs, user: "1234")), effects: [.draw(.changed)]) {
            $0.console.tabsChanged(to: Self.tabs, user: "1234")
        }
        store.send(.keys([.right]), effects: [.request(.open(tab: "profile")), .draw(.changed)]) {
            _ = $0.console.handle(.right)
        }
        // Back to the first tab: the cards, nothing to fetch.
        store.send(.keys([.left]), effects: [.draw(.changed)]) {
            _ = $0.console.handle(.left)
        }
        // Profile's content arrives after the person went back: not shown.
        store.send(.answered(.opened(tab: "profile", lines: ["Ada"])), effects: [.draw(.changed)])
    }

    @Test func qEndsTheRunCancellingTheLoadsUnderWay() {
        let store = Self.loaded()
        store.send(
            .reload(card: nil),
            effects: [
                .moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5)),
                .moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            for index in 0..<2 {
                (screen.cards[index].generation, screen.cards[index].loading) = (2, true)
            }
            (screen.reloading, screen.nextRound) = (true, Rules.at(10))
        }
        store.send(.keys([.character("r")]), effects: [.draw(.changed)])  // the same reload
        store.send(
            .keys([.character("q")]),
            effects: [
                .cancel(card: 0, generation: 2), .cancel(card: 1, generation: 2), .finish,
            ]
        ) { screen in
            screen.stopped = true  // the refreshes cut short are left as they were: loading
        }
    }

    @Test func aPastedBurstOfRIsOneReloadAndAQInItQuitsAtOnce() {
        let store = Self.loaded()
        let burst = [Key.character("r"), .character("r"), .character("r"), .character("q"), .character("r")]
        store.send(
            .keys(burst),
            effects: [
                .moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5)),
                .moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5)),
                .cancel(card: 0, generation: 2), .cancel(card: 1, generation: 2), .finish,
            ]
        ) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (2, true) }
            (screen.reloading, screen.nextRound, screen.stopped) = (true, Rules.at(10), true)
        }
    }
}
