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
        try FixtureLintTests.declare(repo)
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

    /// Registrations as squads write them: Order's order card, Tips' tip card, Location's two and Payments' total,
    /// which owns the checkout's payment.
    static func declare(_ repo: GitRepository) throws {
        try repo.write(
            "Modules/Order/OrderModule.swift",
            "let registration = ComponentRegistration(\n    module: \"Order\", endpoint: \"orders/{order}/details.json\"\n)"
                + " { OrderComponent() }\n")
        try repo.write(
            "Modules/Tips/TipsModule.swift",
            "let tips = ComponentRegistration(module: \"Tips\", endpoint: \"orders/{order}/tips.json\") { T() }\n")
        try repo.write(
            "Modules/Location/LocationModule.swift",
            "let delivery = ComponentRegistration(module: \"Location\", endpoint: \"orders/{order}/delivery.json\") {}\n"
                + "let eta = ComponentRegistration(module: \"Location\", endpoint: \"orders/{order}/eta.json\") {}\n")
        try repo.write(
            "Modules/Payments/PaymentsModule.swift",
            "let total = ComponentRegistration(\n    module: \"Payments\", endpoint: \"carts/{cart}/price.json\", "
                + "sends: [\"carts/{cart}/pay\"]\n) { TotalComponent() }\n")
        try repo.write(
            "Modules/Promo/PromoComponent.swift",
            "let registration = ComponentRegistration(module: \"Promo\", endpoint: \"promos/{code}.json\") {}\n"
                + "// A claim for another squad counts for nobody:\n"
                + "let x = EndpointDeclaration(module: \"Location\", endpoint: \"orders/{order}/rider.json\")\n")
        try repo.write(
            "Modules/Profile/ProfilePlugin.swift",
            "static let endpoint = EndpointDeclaration(module: \"Profile\", endpoint: \"users/{user}/profile.json\")\n")
    }

    /// The issue's cases and their variants: a squad's tree holds only answers to its own endpoints and sends, each
    /// other file a finding naming the file, the squad and the rule; its own answers (new subjects too) are clean.
    @Test func aFileASquadsRegistrationsDoNotDeclareIsAFinding() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try repo.write("Apps/OrderTracking/Kit/Fixtures/api/screens/checkout.json", "{}\n")
        try FixtureLintTests.declare(repo)
        for file in [
            "Modules/Promo/Fixtures/promos/SAVE10.json", "Modules/Promo/Fixtures/promos/NEW20.json",
            "Modules/Location/Fixtures/orders/4242/_eta.3.json", "Modules/Payments/Fixtures/carts/C100/_pay.post.json",
            "Modules/Profile/Fixtures/users/1234/profile.json", "Modules/Tips/Fixtures/orders/7/tips.json",
        ] {
            try repo.write(file, "{}\n")
        }
        try await repo.commit("own answers")
        let clean = await repo.squad(["lint"])
        #expect(clean.status == 0, "\(clean.output)")
        let hostile: [(file: String, why: String)] = [
            ("Modules/Promo/Fixtures/screens/promo-checkout.json", "screens are the host's"),
            ("Modules/Promo/Fixtures/orders/5151/screen.json", "layouts (orders/<id>/screen.json) are the host's"),
            ("Modules/Promo/Fixtures/orders/4040/delivery.json", "it answers Location's orders/{order}/delivery.json"),
            ("Modules/Promo/Fixtures/orders/4040/eta.json", "it answers Location's orders/{order}/eta.json"),
            (
                "Modules/Promo/Fixtures/carts/C300/_pay.post.json",
                "it answers the send to carts/C300/pay, which is Payments' carts/{cart}/pay"
            ),
            ("Modules/Tips/Fixtures/orders/1/payment.json", "it answers none of Tips' orders/{order}/tips.json"),
            (
                "Modules/Order/Fixtures/orders/4242/_eta.1.json",
                "it is a timeline's file of Location's orders/{order}/eta.json"
            ),
            ("Modules/Promo/Fixtures/promos/nested/SAVE10.json", "it answers none of Promo's promos/{code}.json"),
            ("Modules/Promo/Fixtures/promos/SAVE10.json.bak", "it answers none of Promo's promos/{code}.json"),
            (
                "Modules/Location/Fixtures/orders/1/rider.json",
                "it answers none of Location's orders/{order}/delivery.json, orders/{order}/eta.json"
            ),
            ("Modules/Feed/Fixtures/users/1234/feed.json", "Feed declares no endpoint or send"),
        ]
        for entry in hostile { try repo.write(entry.file, "{}\n") }
        try await repo.commit("answers that are not the squad's")
        let run = await repo.squad(["lint"])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        for entry in hostile {
            let squad = entry.file.split(separator: "/")[1]
            let expected =
                "\(entry.file): squad \(squad)'s fixture tree may not hold it: \(entry.why); a squad's tree holds only answers to its own endpoints and sends "
                + "(declared by its registrations; screens, layouts, faults and timelines go in "
                + "Apps/OrderTracking/Kit/Fixtures/api/), and the demo backend refuses it"
            #expect(lines.contains(expected), "\(expected)\n\(run.output)")
        }
        #expect(run.output.contains("lint: \(hostile.count) finding(s)"), "\(run.output)")
    }

    @Test func aFaultOrTimelineInASquadsTreeIsAFinding() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try repo.write("Apps/OrderTracking/Kit/Fixtures/api/orders/1/_faults.json", "{}\n")
        try repo.write("Modules/Order/Fixtures/orders/1/details.json", "{}\n")
        try repo.write("Modules/Tips/Fixtures/carts/C1/_faults.json", "{}\n")
        try FixtureLintTests.declare(repo)
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
