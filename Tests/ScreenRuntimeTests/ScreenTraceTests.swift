import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// The wording of `--trace`: the one test that pins it. Every other store test leaves trace lines out
/// (`ScreenReducerTests.store(traces:)`), so a sentence changed here breaks this test alone.
@Suite struct ScreenTraceTests {
    typealias Rules = ScreenReducerTests

    @Test func theTraceSaysEachStepInItsOwnWords() {
        let cards = [Rules.card("order"), Rules.card("payment", refreshesOn: ["order.status"])]
        let rate = ActionSpec(id: "rate", key: "R", label: "Rate")
        var state = Rules.store(cards, watch: true, actions: [rate], traces: true).state
        var lines: [String] = []
        func say(_ action: ScreenAction) {
            lines += state.reduce(action, at: Rules.start).compactMap { effect in
                if case .trace(let line) = effect { return line }
                return nil
            }
        }
        var order = Rules.answer("order")
        (order.events, order.refreshAfter) = ([DomainEvent("order.status", text: "accepted")], .seconds(3))
        var delivered = Rules.answer("delivered")
        delivered.finished = true
        say(.start(loading: [0, 1]))
        say(.reload(card: 0))
        say(.loaded(card: 0, generation: 1, Rules.answer("late")))
        say(.loaded(card: 0, generation: 2, order))
        say(.loaded(card: 1, generation: 1, Rules.answer("payment")))
        say(.failed(card: 1, generation: 2, Failure("connection refused", transient: true), drawn: nil))
        say(.failed(card: 1, generation: 1, Failure("HTTP 500"), drawn: nil))
        say(.reload(card: 1))
        say(.loaded(card: 1, generation: 3, Rules.answer("payment")))
        say(.act("rate"))
        say(.reload(card: 0))
        say(.loaded(card: 0, generation: 3, delivered))
        #expect(
            lines == [
                "order: start → loading", "payment: start → loading", "order: dropped a stale answer (load #1)",
                "order: asks for a refresh in 3.0s", "event order.status=accepted: order → payment",
                "payment: asks for a refresh in 0.0s",
                "payment: stale, keeping the card from 2023-11-14T22:13:20Z (connection refused)",
                "payment: dropped a stale answer (load #1)", "payment: show", "action rate: cannotTell (0 vetoes)",
                "order: finished",
            ], "\(lines)")
    }
}
