import Core
import ScreenRuntime
import Testing

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
