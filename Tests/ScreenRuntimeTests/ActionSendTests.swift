import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A card that prices a cart and confirms paying its price.
private struct PriceCard: Component, Validatable {
    static let id: ComponentID = "price"
    func load(_ context: ComponentContext) async throws -> String {
        String(
            decoding: try await context.backend.fetch(try Endpoint("carts", try context.id("cart"), "price")),
            as: UTF8.self)
    }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Price", rows: [Row($0)]) }
    }
    func validate(_ action: UserAction, info: String) -> Verdict { .confirm(info, facts: ["amount": info]) }
}

/// The runtime carries out a confirmed action's send through the backend: once, with its key, and reads the
/// answer; an answer that is not a JSON object is a failed action, not a guess.
@Suite struct ActionSendTests {
    func run(answer: String) async throws -> (ScreenFrame, CannedBackend) {
        let clock = VirtualClock()
        let backend = CannedBackend(
            ["carts/C1/price": .json("SAR 1.00"), "POST carts/C1/pay": .json(answer)], clock: clock)
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "carts/{cart}/price") { PriceCard() })
        var pay = ActionSpec(id: "pay")
        (pay.send, pay.done) = ("carts/{cart}/pay", "Paid {amount}: order {order}")
        var settings = ScreenSettings(ids: ["cart": "C1"])
        (settings.actions, settings.perform) = ([pay], "pay")
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: PriceCard.id)], registry: registry, backend: backend, clock: clock,
            settings: settings, report: RuntimeReport(diagnostic: { _ in }))
        let final = try #require(await clock.drive(within: .seconds(10)) { await runtime.run { _, _ in } })
        return (final, backend)
    }

    @Test func theSendGoesOnceWithItsKeyAndTheAnswersFieldsFillTheLine() async throws {
        let (final, backend) = try await run(answer: #"{"order": 42, "ok": true, "nested": {"x": 1}}"#)
        let request = ActionRequest(
            action: "pay", endpoint: try Endpoint("carts", "C1", "pay"), facts: ["amount": "SAR 1.00"])
        #expect(
            backend.sent == [
                SentRequest(path: "carts/C1/pay", body: request.body, headers: ["Idempotency-Key": request.key])
            ])
        guard case .done(_, let fields, let line, _)? = final.action else {
            Issue.record("not done: \(String(describing: final.action))")
            return
        }
        #expect(line == "Paid SAR 1.00: order 42")
        #expect(fields == ["amount": "SAR 1.00", "order": "42", "ok": "true"])
    }

    @Test func anAnswerThatIsNotAnObjectFailsTheAction() async throws {
        let (final, backend) = try await run(answer: "[1]")
        #expect(backend.sent.count == 1)
        #expect(final.action == .failed(action: "pay", reason: "carts/C1/pay: the answer is not a JSON object"))
    }
}
