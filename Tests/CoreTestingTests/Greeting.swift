import Core
import CoreTesting
import Foundation

/// A tiny component for the harness's tests: greets the user named by its endpoint, and hears whether the order
/// was delivered.
struct Greeting: Component {
    struct Info: Sendable, Equatable, Encodable {
        var name: String
        var delivered = false
    }
    static let id: ComponentID = "greeting"

    func load(_ context: ComponentContext) async throws -> Info {
        struct Payload: Decodable { let name: String }
        let data = try await context.payloadOrFetch(try Endpoint("users", try context.id("user"), "greeting.json"))
        return Info(name: try JSONDecoder().decode(Payload.self, from: data).name)
    }

    func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: .skeleton(title: "Greeting", lines: 1)
        case .info(let info):
            Block(title: "Greeting", rows: [Row("Hello, \(info.name)", value: info.delivered ? "done" : "")])
        case .failed: nil
        }
    }
}

extension Greeting: EventConsuming {
    static let orderStatus = EventName<String>("order.status")
    static let consumedEvents: Set<AnyEventName> = [orderStatus]
    func consume(_ event: DomainEvent, into info: Info) -> Info {
        var info = info
        info.delivered = event.payload(of: Greeting.orderStatus) == "delivered"
        return info
    }
}

let greetingAnswers: [String: CannedAnswer] = ["users/1/greeting.json": .json(#"{"name": "Ada"}"#)]
