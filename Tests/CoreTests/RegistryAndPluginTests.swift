import Core
import Testing

@Suite struct RegistryTests {
    @Test func duplicateIdNamesBothModules() throws {
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Greetings", endpoint: "x") { Greeting() })
        let error = #expect(throws: RegistryError.self) {
            try registry.register(ComponentRegistration(module: "Impostor", endpoint: "y") { Greeting() })
        }
        #expect(
            error?.description
                == "component id 'greeting' is registered by Greetings and again by Impostor; ids must be unique")
    }

    @Test func unknownIdIsReportedWithTheKnownOnes() throws {
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Greetings", endpoint: "x") { Greeting() })
        #expect(throws: RegistryError.unknown("nope", known: ["greeting"])) { try registry.registration(for: "nope") }
        #expect(try registry.registration(for: "greeting").module == "Greetings")
    }
}

@Suite struct PluginPointTests {
    @Test func keepsRegistrationOrderAndRefusesDuplicates() throws {
        let (point, resolver) = PluginPoint<String>.make(name: "greeters")
        try point.register("a", id: "A")
        try point.register("b", id: "B")
        #expect(throws: PluginError.duplicate(id: "A", point: "greeters")) { try point.register("again", id: "A") }
        #expect(resolver.resolve() == ["a", "b"])
    }

    @Test func concurrentRegisterAndResolveLoseNothing() async throws {
        let (point, resolver) = PluginPoint<Int>.make(name: "numbers")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask { try? point.register(index, id: "p\(index)") }
                group.addTask { _ = resolver.resolve().count }
                group.addTask { try? point.register(-1, id: "p\(index % 50)") }
            }
        }
        let resolved = resolver.resolveWithIDs()
        #expect(resolved.count == 500)
        #expect(Set(resolved.map(\.id)).count == 500)
    }
}

/// The smallest component a registry can hold.
private struct Greeting: Component {
    struct Info: Sendable, Equatable, Encodable {}
    static let id: ComponentID = "greeting"
    func load(_ context: ComponentContext) async throws -> Info { Info() }
    func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? { nil }
}
