import Foundation
import HostIO

/// Where a command-line host finds the demo data it ships: its own fixture tree (screens, layouts, declared faults
/// and timelines) and every squad module's (`Modules/<Name>/Fixtures`, which SwiftPM ships as that module's
/// resources in the same folder as the host's). Host-generic: any app of the package finds its trees the same way.
public enum EmbeddedTrees {
    /// The host's tree: beside the executable when SwiftPM copied the resource bundle there (found through HostIO's
    /// `ExecutableLocation`, never `argv[0]`: found through `PATH` that is a bare name, and the working folder's files
    /// would replace the demo's), else `fallback` (the host's `Bundle.module` path, whose set-up costs a tenth of a
    /// text screen's start-up, so it is asked only when needed).
    public static func host(bundle: String, fallback: () -> String) -> String {
        if let folder = ExecutableLocation.folder() {
            let beside = folder + "/" + bundle + ".resources/Fixtures/api"
            if access(beside, F_OK) == 0 { return beside }
        }
        return fallback()
    }

    /// Each squad's own tree and whose it is (the module its resource bundle is named after), by module name: every
    /// `Courier_<Module>` bundle but the host's own (`bundle`) in the folder that holds the host's tree (`host`), or
    /// in `fallbackFolder` when the host's tree is not beside the executable.
    public static func squads(host: String, bundle: String, fallbackFolder: () -> String) -> [(
        squad: String, path: String
    )] {
        let besideExecutable = host.hasSuffix("/" + bundle + ".resources/Fixtures/api")
        let folder =
            besideExecutable
            ? String(host.dropLast(("/" + bundle + ".resources/Fixtures/api").count)) : fallbackFolder()
        let bundles = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var trees: [(squad: String, path: String)] = []
        for name in bundles where name.hasPrefix("Courier_") && !name.hasPrefix(bundle + ".") {
            var resources: String?
            var squad = String(name.dropFirst("Courier_".count))
            if name.hasSuffix(".resources") {
                resources = folder + "/" + name
                squad = String(squad.dropLast(".resources".count))
            } else if name.hasSuffix(".bundle") {
                resources = Bundle(path: folder + "/" + name)?.resourcePath
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
}
