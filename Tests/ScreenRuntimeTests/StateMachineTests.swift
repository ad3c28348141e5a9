import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// The transition table is what the reducer consults: every pair is legal or a typed refusal, and a move the
/// table refuses is a diagnostic that changes nothing.
@Suite struct StateMachineTests {
    typealias Rules = ScreenReducerTests

    static let legal: [Phase: [Transition: Phase]] = [
        .loading: [.receive: .info, .fail: .failed],
        .info: [.receive: .info, .refresh: .loading, .fail: .failed],
        .failed: [.retry: .loading],
    ]

    @Test(arguments: Phase.allCases, Transition.allCases)
    func everyPairIsLegalOrATypedError(phase: Phase, transition: Transition) {
        let result = StateMachine.next(after: phase, on: transition)
        if let expected = Self.legal[phase]?[transition] {
            #expect(result == .success(expected))
        } else {
            #expect(result == .failure(IllegalTransition(from: phase, transition: transition)))
            let message = "illegal transition '\(transition.rawValue)' from '\(phase.rawValue)'"
            #expect("\(IllegalTransition(from: phase, transition: transition))" == message)
        }
    }

    /// A screen whose order card is `phase` while its load #1 is under way: a state no action leads to, so only
    /// a test can put the reducer before a move the table refuses.
    static func store(_ phase: Phase) -> Rules.Store {
        let store = Rules.store([Rules.card("order")])
        store.send(
            .start(loading: [0]),
            effects: [
                .trace("order: start → loading"), .draw(.first), .load(card: 0, generation: 1, within: .seconds(5)),
            ]
        ) { ($0.cards[0].generation, $0.cards[0].loading) = (1, true) }
        var state = store.state
        state.cards[0].phase = phase
        return Rules.Store(state, at: Rules.start) { $0.reduce($1, at: $2) }
    }

    @Test func anAnswerForAFailedCardIsRefusedAndSaidNeverApplied() {
        let store = Self.store(.failed)
        store.send(
            .loaded(card: 0, generation: 1, Rules.answer("late")),
            effects: [
                .diagnostic("order: illegal transition 'receive' from 'failed'"), .draw(.changed), .draw(.settled),
            ]
        ) { ($0.cards[0].loading, $0.settledAt) = (false, Rules.start) }
        #expect(store.state.cards[0].info == nil && store.state.cards[0].block == Rules.skeleton)
    }

    @Test func aFailureOfAFailedCardIsRefusedAndSaidNeverApplied() {
        let store = Self.store(.failed)
        store.send(
            .failed(card: 0, generation: 1, Failure("again"), drawn: nil),
            effects: [.diagnostic("order: illegal transition 'fail' from 'failed'"), .draw(.changed), .draw(.settled)]
        ) { ($0.cards[0].loading, $0.settledAt) = (false, Rules.start) }
        #expect(store.state.cards[0].reason == nil && store.state.cards[0].visible)
    }

    /// Every move the reducer makes is the table's: a refresh, its answer, a failure and a retry each say which.
    @Test func eachMoveIsTheTablesAndSaysFromWhereToWhere() {
        let store = Self.store(.loading)
        store.send(
            .loaded(card: 0, generation: 1, Rules.answer("order")),
            effects: [
                .moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            Rules.shows("order", 0, at: Rules.start)(&screen)
            screen.settledAt = Rules.start
        }
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .info, to: .loading), .load(card: 0, generation: 2, within: .seconds(5))]
        ) { ($0.cards[0].phase, $0.cards[0].generation, $0.cards[0].loading, $0.followUp) = (.loading, 2, true, true) }
        let broken = Failure("missing key 'name'")
        store.send(
            .failed(card: 0, generation: 2, broken, drawn: nil),
            effects: [
                .moved(card: 0, from: .loading, to: .failed), .trace("order: hide (missing key 'name')"),
                .track(card: 0, .hidden(broken)), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            (screen.cards[0].phase, screen.cards[0].loading, screen.cards[0].hidden) = (.failed, false, true)
            (screen.cards[0].reason, screen.cards[0].visible, screen.followUp) = (broken.reason, false, false)
            (screen.cards[0].block, screen.cards[0].drawn) = (nil, nil)
        }
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .failed, to: .loading), .load(card: 0, generation: 3, within: .seconds(5))]
        ) { screen in
            (screen.cards[0].phase, screen.cards[0].generation, screen.cards[0].loading) = (.loading, 3, true)
            (screen.cards[0].drawn, screen.cards[0].block, screen.followUp) = (Rules.skeleton, Rules.skeleton, true)
        }
    }
}
