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

@Suite struct EventRouterTests {
    @Test func chainsAreFollowedInOrder() async {
        let router = EventRouter(consumers: [("eta", ["order.status"]), ("delivery", ["order.status"])])
        let result = await router.route(DomainEvent("order.status", "delivered"), from: "order") { _, _ in [] }
        #expect(result.hops.map(\.to) == ["eta", "delivery"])
        #expect(result.cycles.isEmpty)
    }

    @Test func aCycleIsRefusedAndNamed() async {
        let router = EventRouter(consumers: [("a", ["ping"]), ("b", ["pong"])])
        let result = await router.route(DomainEvent("ping", "1"), from: "b") { id, _ in
            id == "a" ? [DomainEvent("pong", "1")] : [DomainEvent("ping", "2")]
        }
        #expect(result.hops.map(\.to) == ["a"])
        #expect(result.cycles.map(\.description) == ["event cycle refused: b → a → b (pong=1)"])
    }

    /// A loop need not close on the source: the chain is named up to the component it would have revisited.
    @Test func aLoopThatStartsLaterInTheChainIsNamedFromTheSource() async {
        let router = EventRouter(consumers: [("b", ["x", "z"]), ("c", ["y"])])
        let result = await router.route(DomainEvent("x", "1"), from: "a") { id, event in
            id == "b" && event.name == "x" ? [DomainEvent("y", "1")] : id == "c" ? [DomainEvent("z", "1")] : []
        }
        #expect(result.hops.map(\.to) == ["b", "c"])
        #expect(result.cycles.map(\.loop) == [["a", "b", "c", "b"]])
    }
}
