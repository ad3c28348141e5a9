import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A card that takes a typed code: it consumes `code.entered`.
private struct CodeCard: Component, EventConsuming {
    static let id: ComponentID = "code"
    static let consumedEvents: Set<AnyEventName> = [EventName<String>("code.entered")]
    func load(_ context: ComponentContext) async throws -> String { "none" }
    func consume(_ event: DomainEvent, into info: String) -> String { event.payload }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? { nil }
}

/// A definition is checked when it is read (issue 58): keys unique, and a prompt's event heard by its card, each
/// refusal naming the file and the field.
@Suite struct DefinitionCheckTests {
    func definition(_ json: String) throws -> ScreenDefinition {
        try ScreenDefinition.parse(Data(json.utf8), name: "s")
    }

    func check(_ definition: ScreenDefinition, entries: [ComponentID] = []) throws {
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "codes") { CodeCard() })
        let clock = VirtualClock()
        try definition.checkPrompts(
            against: entries.map { ScreenEntry(id: $0) }, registry: registry,
            context: ComponentContext(backend: CannedBackend([:], clock: clock), clock: clock))
    }

    @Test func twoPromptsOrActionsOnOneKeyAreRefused() throws {
        #expect(
            throws: Failure(
                "screens/s.json: 'prompts': prompt 'b''s 'key' 'k' is prompt 'a''s too; give each its own key")
        ) {
            try definition(
                #"{"prompts": [{"key": "k", "label": "A", "event": "x", "name": "a"},"#
                    + #" {"key": "k", "label": "B", "event": "x", "name": "b"}]}"#)
        }
        #expect(
            throws: Failure(
                "screens/s.json: 'actions': action 'pay''s 'key' 'p' is prompt 'promo''s too; give each its own key")
        ) {
            try definition(
                #"{"prompts": [{"key": "p", "label": "Promo", "event": "x", "name": "promo"}], "actions": ["pay"]}"#)
        }
        #expect(
            throws: Failure(
                "screens/s.json: 'actions': action 'cancel''s 'key' 'c' is action 'call''s too; give each its own key")
        ) {
            try definition(#"{"actions": ["call", "cancel"]}"#)
        }
        #expect(
            throws: Failure(
                "screens/s.json: 'actions': action 'pay''s 'key' 'p' is action 'pay''s too; give each its own key")
        ) {
            try definition(#"{"actions": ["pay", "pay"]}"#)
        }
        #expect(try definition(#"{"actions": ["pay", {"id": "print", "key": "x"}]}"#).actions.count == 2)
    }

    @Test func aPromptsEventMustBeHeardByItsCard() throws {
        let typo = try definition(
            #"{"prompts": [{"key": "c", "label": "Code", "event": "code.entred", "card": "code"}]}"#)
        #expect(
            throws: Failure(
                "screens/s.json: prompt 'code': its 'event' 'code.entred' is heard by no card it feeds ('code' hears "
                    + "code.entered)")
        ) { try check(typo) }
        let right = try definition(
            #"{"prompts": [{"key": "c", "label": "Code", "event": "code.entered", "card": "code"}]}"#)
        try check(right)
        // Without a card of its own, any card of the screen may hear it.
        let loose = try definition(
            #"{"prompts": [{"key": "c", "label": "Code", "event": "code.entered", "name": "c"}]}"#)
        try check(loose, entries: ["code"])
        let misnamed = try definition(
            #"{"prompts": [{"key": "c", "label": "Code", "event": "code.entered", "card": "cod"}]}"#)
        #expect(
            throws: Failure("screens/s.json: prompt 'cod': its 'card' 'cod' is no registered component (known: code)")
        ) { try check(misnamed) }
        let deaf = try definition(#"{"prompts": [{"key": "c", "label": "Code", "event": "nobody", "name": "c"}]}"#)
        #expect(throws: Failure.self) { try check(deaf, entries: ["code"]) }
    }

    @Test func theRuntimeIsRefusedWhereTheDefinitionMeetsTheRegistry() async throws {
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "codes") { CodeCard() })
        let clock = VirtualClock()
        let typo = try definition(
            #"{"components": ["code"], "prompts": [{"key": "c", "label": "Code", "event": "code.entred", "card": "code"}]}"#
        )
        await #expect(throws: LayoutFailure.self) {
            _ = try await typo.runtime(
                settings: ScreenSettings(ids: [:]), registry: registry, backend: CannedBackend([:], clock: clock),
                clock: clock, report: RuntimeReport(diagnostic: { _ in }))
        }
    }
}
