import Core
import Foundation

/// A card with no domain at all, for benchmarks and load tests: it fetches `synthetic/<card>` and draws one
/// row. It is registered like any squad's component, so what it measures is the real kernel.
public struct SyntheticCard: Component {
    /// What the card shows.
    public struct Info: Sendable, Equatable, Encodable {
        /// The card's number.
        public let index: Int
    }

    /// The id layouts use.
    public static let id: ComponentID = "synthetic"

    /// Creates the card.
    public init() {}

    /// The registry line.
    public static let registration = ComponentRegistration(module: "CoreTesting", endpoint: "synthetic/{card}") {
        SyntheticCard()
    }

    /// Fetches `synthetic/<card>`; the body is the card's number.
    public func load(_ context: ComponentContext) async throws -> Info {
        let data = try await context.backend.fetch(try Endpoint("synthetic", try context.id("card")))
        guard let index = Int(String(decoding: data, as: UTF8.self)) else {
            throw Failure("synthetic body is not a number")
        }
        return Info(index: index)
    }

    /// A skeleton, then one row with the card's number.
    public func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: .skeleton(title: "Card", lines: 1)
        case .info(let info): Block(title: "Card \(info.index)", rows: [Row("Synthetic", value: "#\(info.index)")])
        case .failed: nil
        }
    }
}

/// A backend with a simulated latency per card, on whatever clock it is given (the real one for benchmarks).
public struct LatencyBackend: Backend {
    private let latencies: [Duration]
    private let clock: any CourierClock

    /// Card `i` answers after `latencies[i]` (zero when out of range).
    public init(latencies: [Duration], clock: any CourierClock) {
        self.latencies = latencies
        self.clock = clock
    }

    /// Sleeps for the card's latency, then answers its number.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let card = endpoint.segments.last ?? ""
        if let index = Int(card), index < latencies.count, latencies[index] > .zero {
            do { try await clock.sleep(for: latencies[index]) } catch {
                throw .transport("cancelled", path: endpoint.path)
            }
        }
        return Data(card.utf8)
    }
}
