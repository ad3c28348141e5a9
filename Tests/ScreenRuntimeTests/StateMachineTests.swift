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
        .loading: [.receive: .info, .fail: .failed, .restart: .loading],
        .info: [.receive: .info, .refresh: .loading],
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
                .draw(.first), .load(card: 0, generation: 1, within: .seconds(5)),
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
        ) { screen in
            (screen.cards[0].generation, screen.cards[0].loading) = (2, true)
            screen.lifecycle = .running(delivering: 0, next: .followUp)
        }
        let broken = Failure("missing key 'name'")
        store.send(
            .failed(card: 0, generation: 2, broken, drawn: nil),
            effects: [
                .moved(card: 0, from: .loading, to: .failed),
                .track(card: 0, .hidden(broken)), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            let last = ShownInfo(info: AnyInfo("order"), block: Rules.block("order"), at: Rules.start)
            screen.cards[0].phase = .hidden(reason: broken.reason, drawn: nil, last: last, failingSince: nil)
            (screen.cards[0].loading, screen.lifecycle) = (false, .running(delivering: 0, next: .due))
        }
        store.send(
            .reload(card: 0),
            effects: [.moved(card: 0, from: .failed, to: .loading), .load(card: 0, generation: 3, within: .seconds(5))]
        ) { screen in
            (screen.cards[0].generation, screen.cards[0].loading) = (3, true)
            screen.lifecycle = .running(delivering: 0, next: .followUp)
            let last = ShownInfo(info: AnyInfo("order"), block: Rules.block("order"), at: Rules.start)
            screen.cards[0].phase = .hidden(
                reason: broken.reason, drawn: Rules.skeleton, last: last, failingSince: nil)
        }
    }

    /// What can happen to one card, as the reducer takes it.
    enum CardEvent: CaseIterable, CustomStringConvertible {
        case loaded, failed, consumed, reload

        var description: String {
            switch self {
            case .loaded: "loaded"
            case .failed: "failed"
            case .consumed: "consumed"
            case .reload: "reload"
            }
        }

        /// The transition the event is, from `phase`: an answer or a new info is `receive`, a failed load `fail`,
        /// a person's reload whichever start the phase allows.
        func transition(from phase: Phase) -> Transition {
            switch self {
            case .loaded, .consumed: .receive
            case .failed: .fail
            case .reload: phase == .loading ? .restart : phase == .info ? .refresh : .retry
            }
        }
    }

    /// A one-card screen whose card is in `phase`: its first load under way, its info shown, or hidden by a failure.
    static func card(in phase: Phase) -> ScreenState {
        var state = store().state
        switch phase {
        case .loading: break
        case .info: _ = state.reduce(.loaded(card: 0, generation: 1, Rules.answer("order")), at: Rules.start)
        case .failed: _ = state.reduce(.failed(card: 0, generation: 1, Failure("down"), drawn: nil), at: Rules.start)
        }
        #expect(state.cards[0].machine == phase)
        return state
    }

    /// What each (phase, event) pair does: the table's move, or nothing because the event does not reach a card in
    /// that phase (an answer with no load under way is late and dropped; a card takes an event only while it shows
    /// info, and a loading card's next answer consumes it anyway).
    static let outcomes: [Phase: [CardEvent: Phase?]] = [
        .loading: [.loaded: .info, .failed: .failed, .consumed: nil, .reload: .loading],
        .info: [.loaded: nil, .failed: nil, .consumed: .info, .reload: .loading],
        .failed: [.loaded: nil, .failed: nil, .consumed: nil, .reload: .loading],
    ]

    /// Every (phase, event) pair through the reducer: each move it makes is the table's row for that phase and
    /// transition, the card ends where the row says, a pair that moves nothing leaves the card where it was, no move
    /// is ever refused (the reducer never asks an illegal one), and every row of the table is some pair's move, so
    /// the table holds no row production never takes.
    @Test func everyPhaseAndEventPairMovesAsTheTableSays() {
        var taken: Set<String> = []
        for phase in Phase.allCases {
            for event in CardEvent.allCases {
                var state = Self.card(in: phase)
                let generation = state.cards[0].generation
                let action: ScreenAction =
                    switch event {
                    case .loaded: .loaded(card: 0, generation: generation, Rules.answer("order 2"))
                    case .failed: .failed(card: 0, generation: generation, Failure("down again"), drawn: nil)
                    case .consumed: .consumed(card: 0, Rules.answer("order 2"), path: ["input", "order"])
                    case .reload: .reload(card: 0)
                    }
                let effects = state.reduce(action, at: Rules.start)
                let moves = effects.compactMap { effect -> (Phase, Phase)? in
                    if case .moved(0, let from, let to) = effect { return (from, to) }
                    return nil
                }
                let pair = "(\(phase), \(event))"
                #expect(!effects.contains { if case .diagnostic = $0 { true } else { false } }, "\(pair): \(effects)")
                guard let expected = Self.outcomes[phase]?[event] else {
                    Issue.record("\(pair) has no outcome listed")
                    continue
                }
                guard let to = expected else {
                    #expect(moves.isEmpty, "\(pair) moved: \(moves)")
                    #expect(state.cards[0].machine == phase, "\(pair)")
                    continue
                }
                let transition = event.transition(from: phase)
                #expect(StateMachine.next(after: phase, on: transition) == .success(to), "\(pair): not the table's")
                #expect(moves.count == 1 && moves.first?.0 == phase && moves.first?.1 == to, "\(pair): \(moves)")
                #expect(state.cards[0].machine == to, "\(pair)")
                taken.insert("\(phase) \(transition)")
            }
        }
        let rows = Set(StateMachine.table.map { "\($0.from) \($0.on)" })
        #expect(
            taken == rows,
            "rows no pair takes: \(rows.subtracting(taken)); pairs the table lacks: \(taken.subtracting(rows))")
    }
}
