import Core
import CoreTesting
import Order
import Testing

/// The Order squad's cart card on a checkout.
@Suite struct CartCardTests {
    let path = "carts/C100/cart.json"

    func harness(_ body: String) -> ComponentHarness<CartComponent> {
        ComponentHarness(CartComponent(), ids: ["cart": "C100"], answers: [path: .json(body)])
    }

    @Test func eachItemWithItsQuantityAndAmount() async {
        let harness = harness(
            #"{"items": [{"name": "Chicken shawarma", "quantity": 2, "price": {"minor": 1500, "currency": "SAR"}},"#
                + #"{"name": "Fries", "quantity": 1, "price": {"minor": 1050, "currency": "SAR"}}]}"#)
        await harness.load()
        harness.expectPhases([.loading, .info])
        harness.expectCard(
            """
            ╭─ Cart ───────────────────────────────────╮
            │ 2 × Chicken shawarma           SAR 30.00 │
            │ 1 × Fries                      SAR 10.50 │
            ╰──────────────────────────────────────────╯
            """)
        #expect(
            await harness.verdict(on: .pay)
                == .confirm(
                    "3 items",
                    facts: ["currency": .currency("SAR"), "items": .agreed(minor: 4050, shown: "SAR 40.50")]),
            "its currency and its items' sum, which a bill must agree with")
    }

    @Test func anEmptyCartVetoesPaying() async {
        let harness = harness(#"{"items": []}"#)
        await harness.load()
        #expect(harness.card().contains("The cart is empty"))
        #expect(await harness.verdict(on: .pay) == .veto("the cart is empty"))
    }

    @Test(arguments: [
        (#"{"items": [{"name": "x", "quantity": 0, "price": {"minor": 1, "currency": "SAR"}}]}"#, "1 to 99"),
        (
            #"{"items": [{"name": "x", "quantity": 99, "price": {"minor": 9223372036854775000, "currency": "SAR"}}]}"#,
            "out of range"
        ),
    ])
    func aBrokenCartHidesTheCardWithTheReason(body: String, reason: String) async {
        let harness = harness(body)
        await harness.load()
        harness.expectPhases([.loading, .failed])
        #expect("\(harness.state)".contains(reason))
    }
}
