import Core
import CoreTesting
import Foundation
import LiveScreen
import Promo
import PromoInterface
import ScreenRuntime
import Testing

@testable import OrderTrackingKit

/// A person's input lives in the screen's one state value and reaches the card through its context: the Promo
/// card's real kernel on the test store, every state change and effect asserted, each load run with what the
/// state holds for it. No host object keeps the code.
@Suite struct TypedInputStoreTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let save10 = #"{"code": "SAVE10", "percent_off": 10, "cap": {"minor": 1500, "currency": "SAR"}}"#

    @Test func aCodeTypedAtThePromptIsKeptInTheStateAndReadByPromosNextLoad() async throws {
        let clock = VirtualClock()
        let backend = CannedBackend(["promos/SAVE10.json": .json(Self.save10)], clock: clock)
        let kernel = PromoModule.registration.kernel(context: ComponentContext(backend: backend, clock: clock))
        let definition = try #require(HostEnvironment.embeddedDefinition("checkout"))
        let prompt = try #require(definition.prompts.first { $0.card == PromoComponent.id }?.prompt)
        var settings = ScreenSettings(ids: ["cart": "C100"])
        (settings.timeout, settings.prompts) = (.seconds(5), [prompt])
        let skeleton = try await kernel.card(for: .loading).get()
        let card = CardState(
            id: kernel.id, module: "Promo", consumes: kernel.consumes, refreshesOn: kernel.refreshesOn,
            skeleton: skeleton)
        let store = TestStore(
            ScreenState(cards: [card], started: Self.start, settings: settings), at: Self.start,
            leavingOut: \.isTrace
        ) { $0.reduce($1, at: $2) }
        /// Runs the load the store asked for with the card's received events as the state holds them now.
        func load() async throws -> CardAnswer {
            let received = store.state.cards[0].received
            let result = await clock.drive { await kernel.load(within: .seconds(5), on: clock, received: received) }
            let info = try #require(result).get()
            return try await kernel.answer(for: info, consuming: received, json: false).get()
        }

        store.send(
            .start(loading: [0]),
            effects: [
                .draw(.first), .load(card: 0, generation: 1, within: .seconds(5)),
            ]
        ) { ($0.cards[0].generation, $0.cards[0].loading) = (1, true) }
        let waiting = try await load()
        #expect(waiting.block?.rows.first?.text == "No code yet", "no code in the context: nothing to look up")
        store.send(
            .loaded(card: 0, generation: 1, waiting),
            effects: [
                .moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.cards[0].phase = .shown(ShownInfo(info: waiting.info, block: waiting.block, at: Self.start))
            (screen.cards[0].loading, screen.cards[0].settledAt, screen.cards[0].shownOnce) = (false, Self.start, true)
            screen.settledAt = Self.start  // the frame the sinks are handed says when it settled
        }
        #expect(backend.requests.isEmpty)

        // The live screen's console takes the keys and hands the runtime only the typed code.
        var console = ScreenConsole(prompts: [prompt])
        let keys: [Key] = [.character("p")] + "save10".map { .character($0) } + [.enter]
        let code = AnyEventName.promoEntered("save10")
        #expect(console.take(keys) == [.submit(code)])
        store.send(
            .input(code),
            effects: [
                .draw(.settled), .moved(card: 0, from: .info, to: .loading),
                .load(card: 0, generation: 2, within: .seconds(5)),
            ]
        ) { screen in
            screen.cards[0].received = [code]  // the code's one home
            (screen.cards[0].generation, screen.cards[0].loading) = (2, true)
        }
        let applied = try await load()
        #expect(backend.requests == ["promos/SAVE10.json"], "the next load read the code from its context")
        #expect(applied.block?.rows.first?.text == "✓ SAVE10")
        let rule = try #require(PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR"))
        #expect(applied.events == [AnyEventName.promoApplied(rule)])
        store.send(
            .loaded(card: 0, generation: 2, applied),
            effects: [.moved(card: 0, from: .loading, to: .info), .draw(.changed), .draw(.settled)]
        ) { screen in
            screen.cards[0].phase = .shown(ShownInfo(info: applied.info, block: applied.block, at: Self.start))
            screen.cards[0].loading = false
            screen.cards[0].published = applied.events
        }
    }
}
