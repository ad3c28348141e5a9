import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// One test per runtime rule, on the test store: every state change and every effect asserted, time moved only
/// by the test.
@Suite struct ScreenReducerTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let skeleton = Block(title: "…", rows: [Row("", style: .skeleton)])
    typealias Store = TestStore<ScreenState, ScreenAction, ScreenEffect>

    /// A store of `cards` (an order and a payment card by default); its `--trace` lines are left out of every
    /// comparison unless `traces` (``ScreenTraceTests`` pins their wording).
    static func store(
        _ cards: [CardState]? = nil, watch: Bool = false, prompts: [ConsolePrompt] = [], actions: [ActionSpec] = [],
        perform: String? = nil, ids: [String: String] = [:], traces: Bool = false
    ) -> Store {
        var settings = ScreenSettings(ids: ids)
        (settings.timeout, settings.watch, settings.every, settings.staleLimit) =
            (.seconds(5), watch, .seconds(10), .seconds(60))
        (settings.prompts, settings.actions) = (prompts, actions)
        settings.perform = actions.first { $0.id == perform }
        let cards = cards ?? [card("order"), card("payment")]
        return TestStore(
            ScreenState(cards: cards, started: start, settings: settings), at: start,
            leavingOut: { traces ? false : $0.isTrace }
        ) { $0.reduce($1, at: $2) }
    }

    static func card(_ id: ComponentID, consumes: Set<String> = [], refreshesOn: Set<String> = []) -> CardState {
        CardState(id: id, module: "M", consumes: consumes, refreshesOn: refreshesOn, skeleton: skeleton)
    }
    static func block(_ title: String) -> Block { Block(title: title, rows: [Row(title)]) }
    static func answer(_ title: String) -> CardAnswer { CardAnswer(info: AnyInfo(title), block: block(title)) }
    static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
    static let firstLoads: [ScreenEffect] = [
        .draw(.first),
        .load(card: 0, generation: 1, within: .seconds(5)), .load(card: 1, generation: 1, within: .seconds(5)),
    ]

    /// What an answer with `title` does to card `index` at `now` (its first info).
    static func shows(_ title: String, _ index: Int, at now: Date) -> (inout ScreenState) -> Void {
        { screen in
            screen.cards[index].loading = false
            screen.cards[index].phase = .shown(ShownInfo(info: AnyInfo(title), block: block(title), at: now))
            (screen.cards[index].settledAt, screen.cards[index].shownOnce) = (now, true)
        }
    }

    /// Starts the two-card screen and answers both first loads at 0.1 s.
    static func loaded(watch: Bool = false) -> Store {
        let store = store(watch: watch)
        store.send(.start(loading: [0, 1]), effects: firstLoads) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        store.advance(by: .milliseconds(100))
        store.send(
            .loaded(card: 0, generation: 1, answer("order")),
            effects: [.moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed)],
            shows("order", 0, at: at(0.1)))
        let settled: [ScreenEffect] = watch ? [.draw(.settled), .wake(at: at(10.1))] : [.draw(.settled)]
        store.send(
            .loaded(card: 1, generation: 1, answer("payment")),
            effects: [.moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed)] + settled
        ) { screen in
            screen.settledAt = store.now
            shows("payment", 1, at: at(0.1))(&screen)
            if watch { (screen.nextRound, screen.wakeAt) = (at(10.1), at(10.1)) }
        }
        return store
    }

    @Test func theFirstFrameIsEverySkeletonThenEveryCardLoadsAtOnceWithItsDeadline() {
        let store = Self.store()
        store.send(.start(loading: [0, 1]), effects: Self.firstLoads) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        #expect(store.state.frame(at: Self.start).cards.allSatisfy { $0.block == Self.skeleton && $0.visible })
    }

    @Test func aSkeletonPreviewLoadsNothingAndSettlesAtOnce() {
        let store = Self.store()
        store.send(
            .start(loading: []),
            effects: [
                .draw(.first), .draw(.settled),
            ]
        ) { $0.settledAt = Self.start }
    }

    @Test func answersFillTheScreenAndItSettlesOnceEveryLoadHasAnswered() {
        let store = Self.loaded()
        let frame = store.state.frame(at: Self.at(0.1))
        #expect(frame.cards.map(\.block) == [Self.block("order"), Self.block("payment")])
        #expect(frame.cards.map(\.settledMs) == [100, 100])
        store.send(.stop, effects: [.finish]) { $0.lifecycle = .stopped }
        store.send(.reload(card: nil), effects: [])  // nothing happens after the end
    }

    @Test func aLateAnswerIsDroppedByItsGeneration() {
        let store = Self.store()
        store.send(.start(loading: [0, 1]), effects: Self.firstLoads) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        // A person reloads the order card while its first load is under way: load #1's answer is late.
        store.send(
            .reload(card: 0),
            effects: [
                .moved(card: 0, from: .loading, to: .loading), .cancel(card: 0, generation: 1),
                .load(card: 0, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            screen.cards[0].generation = 2
            screen.lifecycle = .running(delivering: 0, next: .followUp)
        }
        store.send(
            .loaded(card: 0, generation: 1, Self.answer("old")),
            effects: [])
    }

    @Test func aFailedLoadHidesItsCardWithTheReason() {
        let store = Self.store()
        store.send(.start(loading: [0, 1]), effects: Self.firstLoads) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        store.advance(by: .seconds(5))
        let late = Failure("no answer within 5s", transient: true)
        store.send(
            .failed(card: 1, generation: 1, late, drawn: nil),
            effects: [
                .moved(card: 1, from: .loading, to: .failed),
                .track(card: 1, .hidden(late)), .draw(.changed),
            ]
        ) { screen in
            (screen.cards[1].loading, screen.cards[1].settledAt) = (false, Self.at(5))
            screen.cards[1].phase = .hidden(reason: "no answer within 5s", drawn: nil, last: nil, failingSince: nil)
        }
        #expect(store.state.frame(at: Self.at(5)).degraded)
    }

    @Test func aRefreshAskedForIsTakenWhenItFallsDueUnderWatch() {
        let store = Self.loaded(watch: true)
        store.advance(by: .seconds(1))
        var soon = Self.answer("order")
        soon.refreshAfter = .seconds(3)
        // The order card consumes nothing; an answer with an interval (a consumed event's) asks for a look.
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5))]
        ) {
            screen in
            (screen.cards[0].generation, screen.cards[0].loading) = (2, true)
        }
        store.send(
            .loaded(card: 0, generation: 2, soon),
            effects: [
                .moved(card: 0, from: .loading, to: .info),
                .draw(.changed),
                .draw(.settled), .wake(at: Self.at(4.1)),
            ]
        ) { screen in
            screen.settledAt = store.now
            Self.shows("order", 0, at: Self.at(1.1))(&screen)
            (screen.cards[0].due, screen.wakeAt) = (Self.at(4.1), Self.at(4.1))
        }
        store.advance(by: .seconds(3))
        store.send(
            .tick,
            effects: [.moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 3, within: .seconds(5))]
        ) {
            screen in
            (screen.cards[0].generation, screen.cards[0].loading) = (3, true)
            (screen.cards[0].due, screen.wakeAt) = (nil, nil)
        }
    }

    @Test func anEventGoesToItsConsumersAndACycleIsRefused() {
        let cards = [
            Self.card("order", consumes: ["delivery.handed"]), Self.card("delivery", consumes: ["order.status"]),
            Self.card("payment", refreshesOn: ["order.status"]),
        ]
        let store = Self.store(cards)
        store.send(
            .start(loading: [0, 1]),
            effects: [
                .draw(.first), .load(card: 0, generation: 1, within: .seconds(5)),
                .load(card: 1, generation: 1, within: .seconds(5)),
            ]
        ) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        store.send(
            .loaded(card: 0, generation: 1, Self.answer("order")),
            effects: [.moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed)],
            Self.shows("order", 0, at: Self.start))
        store.send(
            .loaded(card: 1, generation: 1, Self.answer("delivery")),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            Self.shows("delivery", 1, at: Self.start)(&screen)
            screen.settledAt = Self.start
        }
        // A person's input: delivery consumes it (it shows info), payment asks for a look.
        let status = DomainEvent("order.status", text: "delivered")
        store.send(
            .input(status),
            effects: [
                .deliver(status, to: 1, path: ["input", "delivery"])
            ]
        ) { screen in
            screen.lifecycle = .running(delivering: 1, next: .followUp)
            (screen.cards[1].received, screen.cards[2].received) = ([status], [status])
            screen.cards[2].due = Self.start
        }
        // Delivery's reaction goes on to the order, whose reaction would come back to delivery: refused.
        let handed = DomainEvent("delivery.handed", text: "yes")
        var handedOver = Self.answer("handed")
        handedOver.events = [handed]
        store.send(
            .consumed(card: 1, handedOver, path: ["input", "delivery"]),
            effects: [
                .moved(card: 1, from: .info, to: .info),
                .deliver(handed, to: 0, path: ["input", "delivery", "order"]), .draw(.changed),
            ]
        ) { screen in
            Self.shows("handed", 1, at: Self.start)(&screen)
            screen.cards[1].published = [handed]
            screen.cards[0].received = [handed]
        }
        let back = DomainEvent("order.status", text: "back")
        var orderBack = Self.answer("back")
        orderBack.events = [back]
        store.send(
            .consumed(card: 0, orderBack, path: ["input", "delivery", "order"]),
            effects: [
                .moved(card: 0, from: .info, to: .info),
                .diagnostic("event cycle refused: input → delivery → order → delivery (order.status=back)"),
                .draw(.changed), .draw(.settled), .load(card: 2, generation: 1, within: .seconds(5)),
            ]
        ) { screen in
            screen.settledAt = store.now
            Self.shows("back", 0, at: Self.start)(&screen)
            (screen.cards[0].published, screen.cards[2].received) = ([back], [back])
            screen.lifecycle = .running(delivering: 0, next: .due)
            (screen.cards[2].due, screen.cards[2].generation, screen.cards[2].loading) = (nil, 1, true)
        }
    }

    @Test func aTransportFailureKeepsTheCardStaleThenHidesItThenFreshAgain() {
        let store = Self.loaded(watch: true)
        store.advance(by: .seconds(10))
        store.send(
            .tick,
            effects: [
                .moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5)),
                .moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            for index in 0..<2 { screen.cards[index].generation = 2 }
            for index in 0..<2 { screen.cards[index].loading = true }
            (screen.nextRound, screen.wakeAt) = (Self.at(20.1), nil)
        }
        store.send(
            .loaded(card: 0, generation: 2, Self.answer("order")),
            effects: [.moved(card: 0, from: .loading, to: .info), .draw(.changed)],
            Self.shows("order", 0, at: Self.at(10.1)))
        let down = Failure("connection refused", transient: true)
        store.send(
            .failed(card: 1, generation: 2, down, drawn: nil),
            effects: [
                .moved(card: 1, from: .loading, to: .failed),
                .track(card: 1, .hidden(down)), .track(card: 1, .stale(since: Self.at(0.1))), .draw(.changed),
                .draw(.settled), .wake(at: Self.at(20.1)),
            ]
        ) { screen in
            screen.settledAt = store.now
            (screen.cards[1].loading, screen.cards[1].settledAt) = (false, Self.at(10.1))
            let last = ShownInfo(info: AnyInfo("payment"), block: Self.block("payment"), at: Self.at(0.1))
            screen.cards[1].phase = .stale(last, failingSince: Self.at(10.1), reason: "connection refused", drawn: nil)
            screen.wakeAt = Self.at(20.1)
        }
        let stale = store.state.frame(at: Self.at(10.1)).cards[1]
        #expect(stale.visible && stale.block == Self.block("payment") && stale.staleSince == Self.at(0.1))
        // Past the limit the stale card is hidden.
        store.advance(by: .seconds(61))
        store.send(
            .tick,
            effects: [
                .draw(.settled),
                .moved(card: 0, from: .info, to: .loading),
                .load(card: 0, generation: 3, within: .seconds(5)), .moved(card: 1, from: .failed, to: .loading),
                .load(card: 1, generation: 3, within: .seconds(5)),
            ]
        ) { screen in
            screen.settledAt = store.now
            // Hidden (with its last info and since when loads fail kept), then retried: the skeleton is drawn.
            let last = ShownInfo(info: AnyInfo("payment"), block: Self.block("payment"), at: Self.at(0.1))
            screen.cards[1].phase = .hidden(
                reason: "connection refused", drawn: Self.skeleton, last: last, failingSince: Self.at(10.1))
            for index in 0..<2 { screen.cards[index].generation = 3 }
            for index in 0..<2 { screen.cards[index].loading = true }
            (screen.nextRound, screen.wakeAt) = (Self.at(81.1), nil)
        }
        #expect(store.state.frame(at: Self.at(71.1)).cards[1].visible == false)
        // Fresh info brings it back.
        store.send(
            .loaded(card: 1, generation: 3, Self.answer("payment")),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown),
                .draw(.changed),
            ]
        ) { screen in
            Self.shows("payment", 1, at: Self.at(71.1))(&screen)
        }
    }

    @Test func reloadingEveryCardLeavesALoadUnderWayAlone() {
        let store = Self.loaded(watch: true)
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5))]
        ) {
            ($0.cards[0].generation, $0.cards[0].loading) = (2, true)
        }
        // `r` while the order loads: noted, and done once the screen is quiet.
        store.send(.reload(card: nil), effects: []) { $0.lifecycle = .running(delivering: 0, next: .everyCard) }
        store.send(
            .loaded(card: 0, generation: 2, Self.answer("order")),
            effects: [
                .moved(card: 0, from: .loading, to: .info), .draw(.changed), .draw(.settled),
                .moved(card: 0, from: .info, to: .loading),
                .load(card: 0, generation: 3, within: .seconds(5)), .moved(card: 1, from: .info, to: .loading),
                .load(card: 1, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            screen.settledAt = store.now
            Self.shows("order", 0, at: Self.at(0.1))(&screen)
            (screen.cards[0].generation, screen.cards[0].loading) = (3, true)
            (screen.cards[1].generation, screen.cards[1].loading) = (2, true)
            (screen.lifecycle, screen.nextRound) = (.running(delivering: 0, next: .reloading), Self.at(10.1))
        }
        // Another `r` while that reload is under way is the same reload.
        store.send(.reload(card: nil), effects: [])
    }

    @Test func aFinishedScreenEndsOnceItsLastLookIsTaken() {
        let store = Self.loaded(watch: true)
        var delivered = Self.answer("delivered")
        delivered.finished = true
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5))]
        ) {
            ($0.cards[0].generation, $0.cards[0].loading) = (2, true)
        }
        store.send(
            .loaded(card: 0, generation: 2, delivered),
            effects: [
                .moved(card: 0, from: .loading, to: .info), .draw(.changed), .draw(.settled),
                .finish,
            ]
        ) { screen in
            screen.settledAt = store.now
            Self.shows("delivered", 0, at: Self.at(0.1))(&screen)
            (screen.finished, screen.lifecycle) = (true, .stopped)
        }
    }

    @Test func stoppingCancelsEveryLoadUnderWay() {
        let store = Self.store(watch: true)
        store.send(.start(loading: [0, 1]), effects: Self.firstLoads) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
        store.send(
            .stop, effects: [.cancel(card: 0, generation: 1), .cancel(card: 1, generation: 1), .finish]
        ) { screen in
            // The cards are left as they are: loading, as the last frame says (no answer is taken any more).
            screen.lifecycle = .stopped
        }
    }
}
