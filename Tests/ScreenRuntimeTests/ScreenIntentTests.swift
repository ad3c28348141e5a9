import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// What a person asks of a screen on the live screen, as the runtime hears it (a typed value, a reload, quitting;
/// the actions are ActionReducerTests'), on the test store: no key, console or terminal reaches the runtime.
@Suite struct ScreenIntentTests {
    typealias Rules = ScreenReducerTests
    static let prompt = ConsolePrompt(
        key: "p", label: "Promo code", effect: "enter a promo code", event: "promo.entered")

    /// The two-card screen under watch, both cards shown, the second refreshing on the prompt's event.
    static func loaded() -> ScreenReducerTests.Store {
        let cards = [Rules.card("order"), Rules.card("promo", refreshesOn: ["promo.entered"])]
        let store = Rules.store(cards, watch: true, prompts: [prompt])
        store.send(
            .start(loading: [0, 1]),
            effects: [
                .draw(.first),
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

    @Test func aTypedCodeIsKeptInTheCardsStateAndItsNextLoadFollows() {
        let store = Self.loaded()
        let code = DomainEvent("promo.entered", text: "s")
        store.send(
            .input(code),
            effects: [
                .draw(.settled),
                .moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            screen.settledAt = store.now
            screen.cards[1].received = [code]  // the input's one home: the card's state, read by its next load
            (screen.cards[1].generation, screen.cards[1].loading) = (2, true)
        }
    }

    @Test func aReloadWhileOneIsUnderWayIsTheSameOneAndStopCancelsTheLoads() {
        let store = Self.loaded()
        store.send(
            .reload(card: nil),
            effects: [
                .moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5)),
                .moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (2, true) }
            (screen.lifecycle, screen.nextRound) = (.running(delivering: 0, next: .reloading), Rules.at(10))
        }
        store.send(.reload(card: nil), effects: [])  // the same reload
        store.send(.stop, effects: [.cancel(card: 0, generation: 2), .cancel(card: 1, generation: 2), .finish]) {
            screen in
            screen.lifecycle = .stopped  // the refreshes cut short are left as they were: loading
        }
    }
}
