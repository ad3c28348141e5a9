import CoreTesting
import FixtureBackend
import Foundation
import Testing

@testable import OrderTrackingKit

/// The embedded demo holds each squad's tree to what its own code declares it calls (the registry's lines and the
/// hooks' declarations): the shipped files all pass, and a file laid in a squad's bundle beside the binary by
/// hand (a screen, a layout, another squad's endpoint or send) is refused with one line instead of served.
@Suite struct SquadFixtureClaimsTests {
    @Test func everyShippedSquadFixtureIsItsOwnSquadsToHold() throws {
        let trees = HostEnvironment.embeddedSquadTrees
        #expect(
            Set(trees.map(\.squad)).isSuperset(of: [
                "Payments", "Order", "Location", "Promo", "Login", "Profile", "Feed",
            ]),
            "\(trees.map(\.squad))")
        var files = 0
        for (squad, tree) in trees {
            let walker = FileManager.default.enumerator(atPath: tree)
            while let file = walker?.nextObject() as? String {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: tree + "/" + file, isDirectory: &isFolder),
                    !isFolder.boolValue
                else { continue }
                files += 1
                #expect(HostRegistry.fixtureClaims.refusal(of: file, in: squad) == nil, "\(squad): \(file)")
            }
        }
        #expect(files > 50)
    }

    @Test func theShippedClaimsRefuseTheHostsAndOtherSquadsFiles() {
        let claims = HostRegistry.fixtureClaims
        for (file, squad) in [
            ("screens/promo-checkout.json", "Promo"), ("orders/5151/screen.json", "Promo"),
            ("orders/4040/delivery.json", "Promo"), ("orders/4040/eta.json", "Promo"),
            ("carts/C300/_pay.post.json", "Promo"), ("carts/C300/_pay.post.json", "Order"),
            ("users/1234/feed.json", "Profile"), ("orders/1/_faults.json", "Location"),
        ] {
            #expect(claims.refusal(of: file, in: squad) != nil, "\(squad): \(file)")
        }
    }

    /// The issue's case end to end: the built binary and its resource bundles copied to a folder of their own,
    /// Promo's bundle given Location's endpoint for order 4040 (which deliberately has no rider) and a screen.
    @Test func aRiderInPromosBundleIsRefusedNotShown() async throws {
        let folder = try TemporaryDirectory()
        let products = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: products.path)
        for name in names where name.hasPrefix("Courier_") && name.hasSuffix(".resources") || name == "order-tracking" {
            try FileManager.default.copyItem(
                at: products.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        let promo = "Courier_Promo.resources/Fixtures/"
        try folder.write(
            #"{"rider": {"name": "Promo's rider"}, "status": "on_the_way"}"#, to: promo + "orders/4040/delivery.json")
        try folder.write(
            #"{"title": "Promo {cart}", "inputs": ["cart"], "components": ["promo"]}"#,
            to: promo + "screens/promo-checkout.json")
        let binary = folder.url.appendingPathComponent("order-tracking").path
        // A deadline no loaded machine reaches: the verdict is the refusal's words, never a slow worker's start read
        // as another failure (two runs under a full suite past two cores once missed the default 5 s).
        let order = try await ProcessRunner.run(
            binary, ["4040", "--plain", "--timeout", "600"], environment: CLI.environment, limit: .seconds(1200))
        let real = folder.url.resolvingSymlinksInPath().path + "/" + promo.dropLast()
        #expect(
            order.stderr.contains(
                "delivery hidden: invalid request: fixture orders/4040/delivery.json is in \(real), Promo's tree: it answers Location's "
                    + "orders/{order}/delivery.json; \(FixtureClaims.rule)"), "\(order.stderr)")
        #expect(!order.stdout.contains("Promo's rider"), "\(order.stdout)")
        let screen = try await ProcessRunner.run(
            binary, ["screen", "promo-checkout", "--input", "cart=C100", "--plain", "--timeout", "600"],
            environment: CLI.environment, limit: .seconds(1200))
        #expect(screen.status != 0)
        #expect(
            screen.stderr.contains("screens/promo-checkout.json is in \(real), Promo's tree: screens are the host's"),
            "\(screen.stderr)")
    }
}
