import Foundation
import Testing

/// `squad lint` over a real repository: every consumed or refreshing event must be one a module publishes, named
/// through its publisher's typed declaration; a published event nobody consumes is a warning.
@Suite struct EventLintTests {
    func repository(etaConsumes: String, paymentRefreshesOn: String) async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try repo.write(
            "Modules/Order/Interface/OrderEvents.swift",
            "extension AnyEventName {\n    public static let orderStatus = EventName<OrderStatus>(\"order.status\")\n}\n"
        )
        try repo.write(
            "Modules/Order/OrderComponent.swift",
            "struct OrderComponent {\n    public static let publishedEvents: Set<AnyEventName> = [.orderStatus]\n}\n")
        try repo.write(
            "Modules/Location/ETAComponent.swift",
            "struct ETAComponent {\n    public static let consumedEvents: Set<AnyEventName> = [\(etaConsumes)]\n}\n")
        try repo.write(
            "Modules/Payments/PaymentComponent.swift",
            "struct PaymentComponent {\n    static let refreshingEvents: Set<AnyEventName> = [\n        \(paymentRefreshesOn),\n    ]\n}\n"
        )
        try await repo.commit("events")
        return repo
    }

    @Test func eventsNamedThroughTheirPublishersDeclarationLintClean() async throws {
        let repo = try await repository(etaConsumes: ".orderStatus", paymentRefreshesOn: "AnyEventName.orderStatus")
        let run = await repo.squad(["lint"])
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("warning: "), "\(run.output)")
        #expect(run.output.split(separator: "\n").last?.hasPrefix("lint: clean") == true, "\(run.output)")
    }

    @Test func aTypoOrAnUndeclaredEventIsAFindingNamingTheFileAndTheEvent() async throws {
        let repo = try await repository(
            etaConsumes: #"EventName<OrderStatus>("order.stauts")"#, paymentRefreshesOn: ".orderStatsu")
        let run = await repo.squad(["lint"])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "Modules/Location/ETAComponent.swift: consumes event 'order.stauts', which no module publishes; "
                    + "name it through its publisher's declaration (an EventName constant listed in the publisher's "
                    + "publishedEvents)"), "\(run.output)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "Modules/Payments/PaymentComponent.swift: refreshes on '.orderStatsu', which no module declares")
            }, "\(run.output)")
    }

    /// An event a person sends (a host prompt's code) has no publishing module: the card that takes it declares it
    /// in `inputEvents`, and only then does refreshing on it lint clean.
    @Test func aPersonsInputIsDeclaredByTheCardThatTakesIt() async throws {
        let repo = try await repository(etaConsumes: ".orderStatus", paymentRefreshesOn: ".orderStatus")
        let declaration =
            "extension AnyEventName {\n    public static let promoEntered = EventName<String>(\"promo.entered\")\n}\n"
        let refreshes = "    public static let refreshingEvents: Set<AnyEventName> = [.promoEntered]\n"
        let takes = "    public static let inputEvents: Set<AnyEventName> = [.promoEntered]\n"
        try repo.write("Modules/Promo/Interface/PromoEvents.swift", declaration)
        try repo.write("Modules/Promo/PromoComponent.swift", "struct PromoComponent {\n" + refreshes + "}\n")
        try await repo.commit("undeclared input")
        let undeclared = await repo.squad(["lint"])
        #expect(undeclared.status == 1)
        #expect(undeclared.output.contains("refreshes on event 'promo.entered', which no module publishes"))
        try repo.write("Modules/Promo/PromoComponent.swift", "struct PromoComponent {\n" + refreshes + takes + "}\n")
        try await repo.commit("declared input")
        let declared = await repo.squad(["lint"])
        #expect(declared.status == 0, "\(declared.output)")
    }

    /// A card publishes `tip.chosen` and nothing hears it: lint says so (a warning, so a publisher may land before
    /// its consumer), and stops saying so once a module consumes it.
    @Test func aPublishedEventNobodyConsumesIsAWarningNamingTheFileAndTheEvent() async throws {
        let repo = try await repository(etaConsumes: ".orderStatus", paymentRefreshesOn: ".orderStatus")
        try repo.write(
            "Modules/Tips/Interface/TipsEvents.swift",
            "extension AnyEventName {\n    public static let tipChosen = EventName<Int>(\"tip.chosen\")\n}\n")
        try repo.write(
            "Modules/Tips/TipComponent.swift",
            "struct TipComponent {\n    public static let publishedEvents: Set<AnyEventName> = [.tipChosen]\n}\n")
        try await repo.commit("a tip nobody hears")
        let unheard = await repo.squad(["lint"])
        #expect(unheard.status == 0, "a warning, not a finding: \(unheard.output)")
        #expect(
            unheard.output.contains(
                "warning: Modules/Tips/TipComponent.swift: publishes event 'tip.chosen', which no module consumes or "
                    + "refreshes on; list it in the consumer's consumedEvents or refreshingEvents, or stop publishing it"
            ), "\(unheard.output)")
        try repo.write(
            "Modules/Payments/TotalComponent.swift",
            "struct TotalComponent {\n    public static let consumedEvents: Set<AnyEventName> = [.tipChosen]\n}\n")
        try await repo.commit("the total hears the tip")
        let heard = await repo.squad(["lint"])
        #expect(heard.status == 0, "\(heard.output)")
        #expect(!heard.output.contains("tip.chosen"), "\(heard.output)")
    }

    /// A squad's event is declared in its own interface folder, which the squad owns; declared in a platform
    /// module (the retired Faces) or beside a card, it is a finding naming the file and where it goes.
    @Test func anEventDeclaredOutsideASquadsInterfaceIsAFinding() async throws {
        let repo = try await repository(etaConsumes: ".orderStatus", paymentRefreshesOn: ".orderStatus")
        try repo.write(
            "Modules/Faces/Events/TippingEvents.swift",
            "extension AnyEventName {\n    public static let tipChosen = EventName<Int>(\"tip.chosen\")\n}\n")
        try await repo.commit("an event in a platform module")
        let run = await repo.squad(["lint"])
        #expect(run.status == 1)
        #expect(
            run.output.split(separator: "\n").contains(
                "Modules/Faces/Events/TippingEvents.swift: declares event 'tip.chosen' outside a squad's interface; "
                    + "move it to Modules/<Squad>/Interface/ (the <Squad>Interface target its consumers import)"),
            "\(run.output)")
    }
}

/// A squad's demo answer laid over the host's tree (or another squad's) at a path that tree gives already is a
/// lint finding naming both trees: the demo backend would refuse it and hide the card asking for it.
@Suite struct FixtureLintTests {
    @Test func aPathTwoFixtureTreesGiveIsAFindingNamingBoth() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try repo.write("Apps/OrderTracking/Kit/Fixtures/api/orders/1/screen.json", "{}\n")
        try repo.write("Modules/Order/Fixtures/orders/1/details.json", "{}\n")
        try repo.write("Modules/Tips/Fixtures/orders/1/tips.json", "{}\n")
        try await repo.commit("trees")
        let clean = await repo.squad(["lint"])
        #expect(clean.status == 0, "\(clean.output)")
        try repo.write("Modules/Tips/Fixtures/orders/1/details.json", "{}\n")
        try repo.write("Modules/Tips/Fixtures/orders/1/screen.json", "{}\n")
        try await repo.commit("a shadow")
        let run = await repo.squad(["lint"])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "orders/1/details.json: given by 2 fixture trees (Modules/Order/Fixtures/, Modules/Tips/Fixtures/); "
                    + "the demo backend refuses it: keep it in the tree of the squad that owns it"), "\(run.output)")
        #expect(
            lines.contains {
                $0.hasPrefix("orders/1/screen.json: given by 2 fixture trees (Apps/OrderTracking/Kit/Fixtures/api/, ")
            }, "\(run.output)")
    }

    @Test func aFaultOrTimelineInASquadsTreeIsAFinding() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try repo.write("Apps/OrderTracking/Kit/Fixtures/api/orders/1/_faults.json", "{}\n")
        try repo.write("Modules/Order/Fixtures/orders/1/details.json", "{}\n")
        try repo.write("Modules/Tips/Fixtures/carts/C1/_faults.json", "{}\n")
        try await repo.commit("a squad's fault")
        let run = await repo.squad(["lint"])
        #expect(run.status == 1)
        #expect(
            run.output.split(separator: "\n").contains(
                "Modules/Tips/Fixtures/carts/C1/_faults.json: faults and timelines are declared in the host's tree "
                    + "(Apps/OrderTracking/Kit/Fixtures/api/) only; the demo backend refuses a squad's"),
            "\(run.output)")
    }
}
