import Core
import FixtureBackend
import Foundation
import HostComposition
import ScreenRuntime

extension HostEnvironment {
    /// The host's fixture tree shipped inside the app (HostComposition's `EmbeddedTrees` finds it beside the
    /// executable first); `Bundle.module` stays the fallback.
    static var embeddedFixtures: String {
        EmbeddedTrees.host(bundle: hostBundle) {
            Bundle.module.resourceURL!.appendingPathComponent("Fixtures/api").path
        }
    }

    /// Every tree the embedded demo backend lays over each other: the host's first, then each squad's own answers,
    /// by module name. The embedded backend refuses a path two of them give.
    static var embeddedFixtureTrees: [String] { [embeddedFixtures] + embeddedSquadTrees.map(\.path) }

    /// The embedded demo backend: the host's tree with every squad's laid over it, each squad's files held to what
    /// its own code declares it calls (``HostRegistry/fixtureClaims``), as `squad lint` holds the repository's.
    static func embeddedBackend(clock: any CourierClock) -> FileBackend {
        FileBackend(
            host: embeddedFixtures, squads: embeddedSquadTrees, claims: HostRegistry.fixtureClaims, clock: clock)
    }

    /// Each squad's own tree and whose it is, by module name.
    static var embeddedSquadTrees: [(squad: String, path: String)] {
        EmbeddedTrees.squads(host: embeddedFixtures, bundle: hostBundle) {
            Bundle.module.bundleURL.deletingLastPathComponent().path
        }
    }

    /// The first embedded demo screen (by name) that shows `card`: whose inputs and prompts a preview takes.
    static func demoScreen(showing card: ComponentID) -> ScreenDefinition? {
        DemoSubject.screen(showing: card, screens: embeddedFixtures + "/screens", definition: embeddedDefinition)
    }

    /// The first demo subject of each input of `card`'s demo screen (HostComposition's `DemoSubject`).
    static func demoSubjects(for card: ComponentID, registry: ComponentRegistry) -> [DemoSubject] {
        DemoSubject.first(
            for: card, registry: registry, screen: demoScreen(showing: card), trees: embeddedFixtureTrees)
    }

    /// The resource bundle SwiftPM names for the host's kit (package Courier, target OrderTrackingKit).
    private static let hostBundle = "Courier_OrderTrackingKit"
}
