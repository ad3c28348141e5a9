import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// An event declared by Promo's interface, as its publisher's file declares it.
private let promoApplied = EventName<String>("promo.applied", fileID: "PromoInterface/PromoEvents.swift")
/// An event this file declares (a test's, in no squad's interface).
private let noteSaid = EventName<String>("note.said")

/// A card that announces Promo's event although it declares none.
private struct Rogue: Component, EventPublishing {
    static let id: ComponentID = "rogue"
    static let publishedEvents: Set<AnyEventName> = [noteSaid]
    func load(_ context: ComponentContext) async throws -> String { "EVIL90" }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Rogue", rows: [Row($0)]) }
    }
    func events(for info: String) -> [DomainEvent] { [promoApplied(info), noteSaid("hello")] }
}

/// A card that lists Promo's event as its own: its module's interface does not declare it.
private struct Impostor: Component, EventPublishing {
    static let id: ComponentID = "impostor"
    static let publishedEvents: Set<AnyEventName> = [promoApplied]
    func load(_ context: ComponentContext) async throws -> String { "EVIL90" }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? { nil }
    func events(for info: String) -> [DomainEvent] { [promoApplied(info)] }
}

/// A card that takes Promo's code.
private struct Total: Component, EventConsuming {
    static let id: ComponentID = "total"
    static let consumedEvents: Set<AnyEventName> = [promoApplied]
    func load(_ context: ComponentContext) async throws -> String { "full price" }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Total", rows: [Row($0)]) }
    }
    func consume(_ event: DomainEvent, into info: String) -> String {
        event.payload(of: promoApplied).map { "discounted by \($0)" } ?? info
    }
}

/// A component announces only what its module declares it publishes: the rule `squad lint` checks, held at run
/// time wherever its code runs (the kernel filters, so a worker's answer is held the same way).
@Suite struct EventDeclarationTests {
    @Test func anEventACardDoesNotDeclareIsRefusedAndNeverRouted() async throws {
        let clock = VirtualClock()
        let context = ComponentContext(backend: CannedBackend([:], clock: clock), clock: clock)
        let kernel = CardKernel(Rogue(), context: context)
        let info = try await kernel.load(within: .seconds(5), on: clock).get()
        let answer = try await kernel.answer(for: info, consuming: [], json: false).get()
        #expect(answer.events.map(\.name) == ["note.said"])
        #expect(answer.refused.map(\.name) == ["promo.applied"])
    }

    @Test func anotherSquadsEventIsRefusedEvenWhenACardListsIt() async throws {
        let clock = VirtualClock()
        let context = ComponentContext(backend: CannedBackend([:], clock: clock), clock: clock)
        #expect(CardKernel.publishable(Impostor.self).isEmpty)
        #expect(CardKernel.publishable(Rogue.self) == ["note.said"], "a test's own event is in no squad's interface")
        let kernel = CardKernel(Impostor(), context: context)
        let info = try await kernel.load(within: .seconds(5), on: clock).get()
        #expect(
            try await kernel.answer(for: info, consuming: [], json: false).get().refused.map(\.name) == [
                "promo.applied"
            ])
    }

    @Test func onAScreenTheRefusalIsSaidAndTheOtherCardsAreUntouched() async throws {
        let clock = VirtualClock()
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Rogue", endpoint: "rogue.json") { Rogue() })
        try registry.register(ComponentRegistration(module: "Payments", endpoint: "total.json") { Total() })
        let said = Locked([String]())
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: Rogue.id), ScreenEntry(id: Total.id)], registry: registry,
            backend: CannedBackend([:], clock: clock), clock: clock, settings: ScreenSettings(ids: [:]),
            report: RuntimeReport(diagnostic: { line in said.withLock { $0.append(line) } }))
        let frame = try #require(await clock.drive(within: .seconds(10)) { await runtime.run { _, _ in } })
        let total = try #require(frame.cards.first { $0.id == Total.id })
        #expect(total.block?.rows.map(\.text) == ["full price"])
        #expect(
            said.withLock { $0 } == ["rogue: announced promo.applied, which its module does not declare; refused"])
    }
}
