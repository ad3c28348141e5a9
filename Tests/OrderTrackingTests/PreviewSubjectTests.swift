import Core
import CoreTesting
import HostComposition
import Testing

@testable import OrderTrackingKit

/// A card the demo screens do not show yet, as `squad new` leaves it: its endpoint names the order.
private struct Rewards: Component {
    static let id: ComponentID = "rewards-test"
    func load(_ context: ComponentContext) async throws -> String { try context.id("order") }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? { nil }
}

/// `preview NAME` without `--input`: the first demo subject of the card's screen, said on stderr in one line.
@Suite struct PreviewSubjectTests {
    @Test func aCheckoutCardIsPreviewedWithTheFirstDemoCartAndSaysSo() async {
        let total = await InProcess.run(["preview", "total"])
        #expect(total.status == 0, "\(total.stdout)\(total.stderr)")
        #expect(total.stdout.hasPrefix("total · Payments · state: info\n"))
        #expect(total.stdout.contains("SAR 50.50"), "C100's price")
        #expect(total.stderr == "previewing with cart C100, the first demo cart; give --input cart=ID for another\n")
        let other = await InProcess.run(["preview", "total", "--input", "cart=C300"])
        #expect(other.status == 2 && other.stderr.isEmpty, "a cart given: no line, and that cart's card")
    }

    @Test func aTrackingCardTakesOrder1234UnlessOneIsGiven() async {
        let payment = await InProcess.run(["preview", "payment"])
        #expect(payment.status == 0)
        #expect(
            payment.stderr == "previewing with order 1234, the first demo order; give --input order=ID for another\n")
        for given in [["--order", "5678"], ["--input", "order=5678"]] {
            let run = await InProcess.run(["preview", "payment"] + given)
            #expect(run.status == 2 && run.stderr.isEmpty, "\(given): \(run.stderr)")
        }
    }

    @Test func aPromptsValueGivenByNameReachesThePreviewedCardAsOnItsScreen() async {
        let given = await InProcess.run(["preview", "promo", "--input", "promo=SAVE10"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("✓ SAVE10"), "the code typed at the start, not 'No code yet': \(given.stdout)")
        let refused = await InProcess.run(["preview", "promo", "--input", "promo=ABCDEFGHIJKLMNOPQ"])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(
            refused.stderr.hasPrefix(
                "order-tracking: --input promo 'ABCDEFGHIJKLMNOPQ' is not what the Promo code prompt takes: use 1 to "
                    + "16 letters and digits"), "\(refused.stderr)")
    }

    @Test func aCardOnNoDemoScreenTakesTheInputsItsOwnEndpointNames() throws {
        var registry = ComponentRegistry()
        try registry.register(
            ComponentRegistration(module: "Rewards", endpoint: "orders/{order}/rewards.json") {
                Rewards()
            })
        #expect(
            HostEnvironment.demoSubjects(for: Rewards.id, registry: registry) == [
                DemoSubject(input: "order", id: "1234")
            ])
        #expect(HostEnvironment.demoSubjects(for: "unknown", registry: registry).isEmpty)
    }
}
