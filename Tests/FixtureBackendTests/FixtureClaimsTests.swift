import Core
import CoreTesting
import FixtureBackend
import Foundation
import Testing

/// The claims of today's squads, as the host's registry and hooks declare them.
let demoClaims = FixtureClaims([
    FixtureClaim(
        squad: "Payments",
        endpoints: ["orders/{order}/payment.json", "carts/{cart}/methods.json", "carts/{cart}/price.json"],
        sends: ["carts/{cart}/pay"]),
    FixtureClaim(squad: "Order", endpoints: ["orders/{order}/details.json", "carts/{cart}/cart.json"]),
    FixtureClaim(squad: "Location", endpoints: ["orders/{order}/delivery.json", "orders/{order}/eta.json"]),
    FixtureClaim(squad: "Promo", endpoints: ["promos/{code}.json"]),
    FixtureClaim(squad: "Login", endpoints: ["(stored session)", "users/{user}/account.json"]),
    FixtureClaim(squad: "Profile", endpoints: ["users/{user}/profile.json"]),
])

/// A squad's tree answers only its own endpoints and the sends its cards own: the rule `squad lint` and the demo
/// backend both apply, checked path by path.
@Suite struct FixtureClaimsTests {
    @Test func aSquadsOwnEndpointsTheirTimelineFilesAndItsSendsAreItsToHold() {
        for (path, squad) in [
            ("promos/SAVE10.json", "Promo"), ("promos/NEW20.json", "Promo"), ("orders/1234/delivery.json", "Location"),
            ("orders/4242/_eta.3.json", "Location"), ("orders/4242/_details.on_the_way.json", "Order"),
            ("carts/C100/_pay.post.json", "Payments"), ("carts/C9/price.json", "Payments"),
            ("users/5555/account.json", "Login"), ("orders/8080/payment.json", "Payments"),
        ] {
            #expect(demoClaims.refusal(of: path, in: squad) == nil, "\(squad): \(path)")
        }
    }

    @Test func screensLayoutsFaultsAndTimelinesAreTheHosts() {
        #expect(demoClaims.refusal(of: "screens/promo-checkout.json", in: "Promo") == "screens are the host's")
        #expect(demoClaims.refusal(of: "screens/nested/x.json", in: "Payments") == "screens are the host's")
        #expect(
            demoClaims.refusal(of: "orders/5151/screen.json", in: "Promo")
                == "layouts (orders/<id>/screen.json) are the host's")
        #expect(
            demoClaims.refusal(of: "orders/1/_timeline.json", in: "Location") == "faults and timelines are the host's")
        #expect(
            demoClaims.refusal(of: "carts/C1/_faults.json", in: "Payments") == "faults and timelines are the host's")
    }

    @Test func anotherSquadsEndpointOrSendIsRefusedNamingItsOwner() {
        #expect(
            demoClaims.refusal(of: "orders/4040/delivery.json", in: "Promo")
                == "it answers Location's orders/{order}/delivery.json")
        #expect(
            demoClaims.refusal(of: "orders/4040/eta.json", in: "Promo")
                == "it answers Location's orders/{order}/eta.json")
        #expect(
            demoClaims.refusal(of: "carts/C300/_pay.post.json", in: "Promo")
                == "it answers the send to carts/C300/pay, which is Payments' carts/{cart}/pay")
        #expect(
            demoClaims.refusal(of: "orders/1/payment.json", in: "Location")
                == "it answers Payments' orders/{order}/payment.json")
        #expect(
            demoClaims.refusal(of: "orders/4242/_delivery.1.json", in: "Order")
                == "it is a timeline's file of Location's orders/{order}/delivery.json")
        #expect(
            demoClaims.refusal(of: "users/1234/profile.json", in: "Login")
                == "it answers Profile's users/{user}/profile.json"
        )
    }

    @Test func namesThatOnlyLookLikeAnEndpointAnswerNone() {
        let promo = "Promo's promos/{code}.json"
        for path in [
            "promos/nested/SAVE10.json", "promos/SAVE10.json.bak", "promos/SAVE10.JSON",
            "orders/4040/promos/SAVE10.json", "promos/SAVE10.json/x.json",
        ] {
            #expect(demoClaims.refusal(of: path, in: "Promo") == "it answers none of \(promo)", "\(path)")
        }
        for path in ["orders/4040/extra/delivery.json", "orders/4040/delivery.json.json", "orders/4040/Delivery.json"] {
            #expect(demoClaims.refusal(of: path, in: "Location")?.hasPrefix("it answers none of Location's") == true)
        }
        #expect(
            demoClaims.refusal(of: "orders/1/_eta.json", in: "Location")?.hasPrefix("it is a timeline's file of none")
                == true)
        #expect(
            demoClaims.refusal(of: "orders/1/_eta.post.json", in: "Location")?.hasPrefix(
                "it answers the send to orders/1/eta, none of") == true)
        #expect(
            demoClaims.refusal(of: "carts/C1/_pay.post.json/x", in: "Payments")?.hasPrefix("it answers none of") == true
        )
        #expect(demoClaims.refusal(of: "promos//SAVE10.json", in: "Promo") == "no endpoint's path is like it")
        #expect(
            demoClaims.refusal(of: "promos/_SAVE10.json", in: "Promo")
                == "it is a timeline's file of none of Promo's promos/{code}.json")
        #expect(demoClaims.refusal(of: "tips/1.json", in: "Tips") == "Tips declares no endpoint or send")
    }

    @Test func anEndpointTwoSquadsClaimIsNeithersToHold() {
        let claims = FixtureClaims(
            demoClaims.claims + [FixtureClaim(squad: "Promo", endpoints: ["orders/{order}/delivery.json"])])
        #expect(
            claims.refusal(of: "orders/4040/delivery.json", in: "Promo")
                == "it answers Location's orders/{order}/delivery.json")
        #expect(
            claims.refusal(of: "orders/4040/delivery.json", in: "Location")
                == "it answers Promo's orders/{order}/delivery.json")
    }
}

/// The demo backend holds each squad's tree to its claims at run time, one line naming the file, its tree and the
/// rule, so a tree laid beside the binary by hand cannot do what `squad lint` keeps out of the repository.
@Suite struct SquadTreeClaimsTests {
    let tree: TemporaryDirectory
    let clock = VirtualClock()

    init() throws {
        tree = try TemporaryDirectory()
        try tree.write(#"{"title": "Checkout"}"#, to: "host/screens/checkout.json")
        try tree.write(#"{"components": []}"#, to: "host/orders/4040/screen.json")
        try tree.write(#"{"delivery.json": [[0, "_delivery.0.json"]]}"#, to: "host/orders/4242/_timeline.json")
        try tree.write(#"{"code": "SAVE10"}"#, to: "promo/promos/SAVE10.json")
        try tree.write(#"{"code": "NEW20"}"#, to: "promo/promos/NEW20.json")
        try tree.write(#"{"rider": "Sam"}"#, to: "location/orders/1234/delivery.json")
        try tree.write(#"{"rider": "Ana"}"#, to: "location/orders/4242/_delivery.0.json")
        try tree.write(#"{"paid": true}"#, to: "payments/carts/C100/_pay.post.json")
    }

    var backend: FileBackend {
        FileBackend(
            host: tree.url.path + "/host",
            squads: ["Promo", "Location", "Payments"].map { ($0, tree.url.path + "/" + $0.lowercased()) },
            claims: demoClaims, clock: clock)
    }

    func text(_ backend: FileBackend, _ path: String) async throws -> String {
        let segments = path.split(separator: "/").map(String.init)
        return String(decoding: try await backend.fetch(try Endpoint(segments: segments)), as: UTF8.self)
    }

    func refusal(_ file: String, in squad: String, _ why: String) -> BackendError {
        let root = tree.url.resolvingSymlinksInPath().path + "/" + squad.lowercased()
        return .invalidRequest("fixture \(file) is in \(root), \(squad)'s tree: \(why); \(FixtureClaims.rule)")
    }

    @Test func aSquadsOwnAnswersAndNewSubjectsAreServed() async throws {
        let backend = backend
        #expect(try await text(backend, "screens/checkout.json") == #"{"title": "Checkout"}"#)
        #expect(try await text(backend, "promos/SAVE10.json") == #"{"code": "SAVE10"}"#)
        #expect(try await text(backend, "promos/NEW20.json") == #"{"code": "NEW20"}"#)
        #expect(try await text(backend, "orders/1234/delivery.json") == #"{"rider": "Sam"}"#)
        #expect(try await text(backend, "orders/4242/delivery.json") == #"{"rider": "Ana"}"#, "the host's timeline")
        let paid = try await backend.send(try Endpoint("carts", "C100", "pay"), body: Data(), headers: [:])
        #expect(String(decoding: paid, as: UTF8.self) == #"{"paid": true}"#)
    }

    @Test func aScreenOrALayoutInASquadsTreeIsRefused() async throws {
        try tree.write(
            #"{"actions": [{"id": "pay", "send": "carts/{cart}/pay"}]}"#, to: "promo/screens/promo-checkout.json")
        try tree.write(#"{"components": ["promo"]}"#, to: "promo/orders/5151/screen.json")
        let backend = backend
        await #expect(throws: refusal("screens/promo-checkout.json", in: "Promo", "screens are the host's")) {
            try await backend.fetch(try Endpoint("screens", "promo-checkout.json"))
        }
        await #expect(
            throws: refusal("orders/5151/screen.json", in: "Promo", "layouts (orders/<id>/screen.json) are the host's")
        ) { try await backend.fetch(try Endpoint("orders", "5151", "screen.json")) }
    }

    @Test func anotherSquadsEndpointsAndSendsInASquadsTreeAreRefused() async throws {
        try tree.write(#"{"rider": "Promo's"}"#, to: "promo/orders/4040/delivery.json")
        try tree.write(#"{"minutes": 1}"#, to: "promo/orders/4040/eta.json")
        try tree.write(#"{"paid": true}"#, to: "promo/carts/C300/_pay.post.json")
        try tree.write(#"{"paid": false}"#, to: "location/orders/1234/payment.json")
        let backend = backend
        await #expect(
            throws: refusal(
                "orders/4040/delivery.json", in: "Promo", "it answers Location's orders/{order}/delivery.json")
        ) { try await backend.fetch(try Endpoint("orders", "4040", "delivery.json")) }
        await #expect(
            throws: refusal("orders/4040/eta.json", in: "Promo", "it answers Location's orders/{order}/eta.json")
        ) {
            try await backend.fetch(try Endpoint("orders", "4040", "eta.json"))
        }
        await #expect(
            throws: refusal(
                "carts/C300/_pay.post.json", in: "Promo",
                "it answers the send to carts/C300/pay, which is Payments' carts/{cart}/pay")
        ) { try await backend.send(try Endpoint("carts", "C300", "pay"), body: Data(), headers: [:]) }
        await #expect(
            throws: refusal(
                "orders/1234/payment.json", in: "Location", "it answers Payments' orders/{order}/payment.json")
        ) { try await backend.fetch(try Endpoint("orders", "1234", "payment.json")) }
        #expect(try await text(backend, "promos/SAVE10.json") == #"{"code": "SAVE10"}"#, "its own still answer")
    }

    @Test func nestedFoldersAndLookAlikeNamesAreRefused() async throws {
        try tree.write("{}", to: "promo/promos/nested/SAVE10.json")
        try tree.write("{}", to: "promo/promos/SAVE10.json.bak")
        try tree.write("{}", to: "location/orders/1234/extra/delivery.json")
        let backend = backend
        let promo = "it answers none of Promo's promos/{code}.json"
        await #expect(throws: refusal("promos/nested/SAVE10.json", in: "Promo", promo)) {
            try await backend.fetch(try Endpoint("promos", "nested", "SAVE10.json"))
        }
        await #expect(throws: refusal("promos/SAVE10.json.bak", in: "Promo", promo)) {
            try await backend.fetch(try Endpoint("promos", "SAVE10.json.bak"))
        }
        let location = "it answers none of Location's orders/{order}/delivery.json, orders/{order}/eta.json"
        await #expect(throws: refusal("orders/1234/extra/delivery.json", in: "Location", location)) {
            try await backend.fetch(try Endpoint("orders", "1234", "extra", "delivery.json"))
        }
    }

    @Test func aTimelinesFileFromAnotherSquadsTreeIsRefused() async throws {
        try FileManager.default.removeItem(at: tree.url.appendingPathComponent("location/orders/4242/_delivery.0.json"))
        try tree.write(#"{"rider": "Promo's"}"#, to: "promo/orders/4242/_delivery.0.json")
        let backend = backend
        await #expect(
            throws: refusal(
                "orders/4242/_delivery.0.json", in: "Promo",
                "it is a timeline's file of Location's orders/{order}/delivery.json")
        ) { try await backend.fetch(try Endpoint("orders", "4242", "delivery.json")) }
    }
}
