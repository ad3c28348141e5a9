import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// The transition table is what the reducer consults: every pair is legal or a typed refusal, each move the
/// reducer makes is the table's, and a card's state cannot be in a phase from which an answer is refused.
@Suite struct StateMachineTests {
    typealias Rules = ScreenReducerTests

    static let legal: [Phase: [Transition: Phase]] = [
        .loading: [.receive: .info, .fail: .failed],
        .info: [.receive: .info, .refresh: .loading, .fail: .failed],
        .failed: [.retry: .loading],
    ]

    /// ARCHITECTURE.md §4 and the module's README say the table has six rows: the six legal moves above.
    @Test func theTableIsTheSixRowsTheDocsSay() {
        #expect(StateMachine.table.count == 6)
        #expect(StateMachine.table.count == Self.legal.values.map(\.count).reduce(0, +))
    }

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

    /// The state the reducer's refusals were once tested on (a failed card while its load is under way, forged by
    /// hand) cannot be written any more: a card's state machine is read off what it shows and its load, so a load
    /// under way is always `loading`, and an answer or a failure only ever meets a loading card.
    @Test func aLoadUnderWayIsLoadingWhateverTheCardShows() {
        let last = ShownInfo(info: AnyInfo("order"), block: Rules.block("order"), at: Rules.start)
        let phases: [(CardPhase, Phase)] = [
            (.waiting, .loading), (.shown(last), .info),
            (.stale(last, failingSince: Rules.start, reason: "down", drawn: nil), .failed),
            (.hidden(reason: "down", drawn: nil, last: last, failingSince: nil), .failed),
        ]
        for (phase, settled) in phases {
            var card = Rules.card("order")
            card.phase = phase
            #expect(card.machine == settled)
            card.loading = true
            #expect(card.machine == .loading)
        }
    }

    /// A screen whose order card's load #1 is under way.
    static func store() -> Rules.Store {
        let store = Rules.store([Rules.card("order")])
        store.send(
            .start(loading: [0]),
            effects: [
                .trace("order: start → loading"), .draw(.first), .load(card: 0, generation: 1, within: .seconds(5)),
            ]
        ) { ($0.cards[0].generation, $0.cards[0].loading) = (1, true) }
        return store
    }

    /// Every move the reducer makes is the table's: a refresh, its answer, a failure and a retry each say which.
    @Test func eachMoveIsTheTablesAndSaysFromWhereToWhere() {
        let store = Self.store()
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
        ) { ($0.cards[0].generation, $0.cards[0].loading, $0.followUp) = (2, true, true) }
        let broken = Failure("missing key 'name'")
        store.send(
            .failed(card: 0, generation: 2, broken, drawn: nil),
            effects: [
                .moved(card: 0, from: .loading, to: .failed), .trace("order: hide (missing key 'name')"),
                .track(card: 0, .hidden(broken)), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            let last = ShownInfo(info: AnyInfo("order"), block: Rules.block("order"), at: Rules.start)
            screen.cards[0].phase = .hidden(reason: broken.reason, drawn: nil, last: last, failingSince: nil)
            (screen.cards[0].loading, screen.followUp) = (false, false)
        }
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .failed, to: .loading), .load(card: 0, generation: 3, within: .seconds(5))]
        ) { screen in
            (screen.cards[0].generation, screen.cards[0].loading, screen.followUp) = (3, true, true)
            let last = ShownInfo(info: AnyInfo("order"), block: Rules.block("order"), at: Rules.start)
            screen.cards[0].phase = .hidden(
                reason: broken.reason, drawn: Rules.skeleton, last: last, failingSince: nil)
        }
    }
}
