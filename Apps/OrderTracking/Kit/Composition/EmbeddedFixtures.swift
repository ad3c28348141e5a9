import Core
import FixtureBackend
import Foundation
import HostIO

extension HostEnvironment {
    /// The host's fixture tree shipped inside the app: the screens' definitions and layouts, and the demo's
    /// declared faults and timelines. SwiftPM copies it beside the executable; looking there first skips
    /// `Bundle.module` (CFBundle setup, a tenth of a text screen's start-up), which stays the fallback. Beside the
    /// executable where it really is (HostIO's `ExecutableLocation`), never beside `argv[0]`: found through `PATH`
    /// that is a bare name, and the working folder's files would replace the demo's.
    static var embeddedFixtures: String {
        if let folder = ExecutableLocation.folder() {
            let beside = folder + "/" + hostBundle + ".resources/Fixtures/api"
            if access(beside, F_OK) == 0 { return beside }
        }
        return Bundle.module.resourceURL!.appendingPathComponent("Fixtures/api").path
    }

    /// Every tree the embedded demo backend lays over each other: the host's first, then each squad's own answers
    /// (`Modules/<Name>/Fixtures`, which SwiftPM ships as that module's resources, in the same folder as the
    /// host's), by module name. The embedded backend refuses a path two of them give.
    static var embeddedFixtureTrees: [String] { [embeddedFixtures] + embeddedSquadTrees.map(\.path) }

    /// The embedded demo backend: the host's tree with every squad's laid over it, each squad's files held to what
    /// its own code declares it calls (``HostRegistry/fixtureClaims``), as `squad lint` holds the repository's.
    static func embeddedBackend(clock: any CourierClock) -> FileBackend {
        FileBackend(
            host: embeddedFixtures, squads: embeddedSquadTrees, claims: HostRegistry.fixtureClaims, clock: clock)
    }

    /// Each squad's own tree and whose it is (the module its resource bundle is named after), by module name.
    static var embeddedSquadTrees: [(squad: String, path: String)] {
        let host = embeddedFixtures
        let besideExecutable = host.hasSuffix("/" + hostBundle + ".resources/Fixtures/api")
        let folder =
            besideExecutable
            ? String(host.dropLast(("/" + hostBundle + ".resources/Fixtures/api").count))
            : Bundle.module.bundleURL.deletingLastPathComponent().path
        let bundles = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var trees: [(squad: String, path: String)] = []
        for bundle in bundles where bundle.hasPrefix("Courier_") && !bundle.hasPrefix(hostBundle + ".") {
            var resources: String?
            var squad = String(bundle.dropFirst("Courier_".count))
            if bundle.hasSuffix(".resources") {
                resources = folder + "/" + bundle
                squad = String(squad.dropLast(".resources".count))
            } else if bundle.hasSuffix(".bundle") {
                resources = Bundle(path: folder + "/" + bundle)?.resourcePath
                squad = String(squad.dropLast(".bundle".count))
            }
            var isFolder: ObjCBool = false
            if let tree = resources.map({ $0 + "/Fixtures" }),
                FileManager.default.fileExists(atPath: tree, isDirectory: &isFolder), isFolder.boolValue
            {
                trees.append((squad, tree))
            }
        }
        return trees
    }

    /// The resource bundle SwiftPM names for the host's kit (package Courier, target OrderTrackingKit).
    private static let hostBundle = "Courier_OrderTrackingKit"
}
