import CoreTesting
import Foundation
import Testing

/// The embedded demo backend is read from beside the executable where it really is: run through `PATH` (whose
/// `argv[0]` is a bare name) or through a link, from a working folder that holds a look-alike fixture tree, the
/// program still shows the demo's own fixtures (the host's tree and each squad's, beside the executable) and falls
/// back to the demo's own screen definition.
@Suite struct EmbeddedFixtureLocationTests {
    static let bundle = "Courier_OrderTrackingKit.resources/Fixtures/api"

    /// A working folder holding a hostile copy of the fixtures where `argv[0]`'s folder would find them (the
    /// host's bundle and Order's): its restaurant is "HOSTILE-FIXTURE" and its tracking screen is titled
    /// "HOSTILE {order}". Also under `link/`,
    /// beside a relative link to the real binary.
    static func hostileFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        for base in [folder.url, folder.url.appendingPathComponent("link")] {
            let tree = base.appendingPathComponent(bundle)
            try FileManager.default.createDirectory(
                at: tree.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLI.fixtures, to: tree)
            for (file, from, to) in [
                ("orders/1234/details.json", "Al Baik", "HOSTILE-FIXTURE"),
                ("screens/tracking.json", "Order {order}", "HOSTILE {order}"),
            ] {
                let url = tree.appendingPathComponent(file)
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(text.contains(from), "the fixture \(file) still holds \(from)")
                try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: url)
            }
            // A look-alike of Order's own tree (squads' answers ship as their modules' resources).
            let order = base.appendingPathComponent("Courier_Order.resources/Fixtures/orders/1234/details.json")
            try FileManager.default.createDirectory(
                at: order.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: tree.appendingPathComponent("orders/1234/details.json"), to: order)
        }
        // link/order-tracking → the real binary, by a relative path.
        let link = folder.url.appendingPathComponent("link/order-tracking")
        let up = Array(repeating: "..", count: folder.url.appendingPathComponent("link").pathComponents.count - 1)
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: (up + [String(CLI.binary.dropFirst())]).joined(separator: "/"))
        // bin/order-tracking → the real binary, by its absolute path: a folder to put on PATH.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("bin/order-tracking").path, withDestinationPath: CLI.binary)
        return folder
    }

    /// `command` run by sh in `folder` with `path` first on PATH.
    static func run(_ command: String, in folder: URL, path: String) async throws -> ProcessResult {
        var environment = CLI.environment
        environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try await ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \(command)", folder.path], environment: environment)
    }

    @Test(arguments: ["bin", "products", "link"])
    func theDemoFixturesComeFromBesideTheRealExecutable(_ way: String) async throws {
        let folder = try Self.hostileFolder()
        let binFolder = folder.url.appendingPathComponent("bin").path
        let products = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let (command, path) =
            switch way {
            case "bin": ("order-tracking", binFolder)
            case "products": ("order-tracking", products)
            default: ("link/order-tracking", "/nonexistent")
            }
        let screen = try await Self.run("\(command) 1234 --plain", in: folder.url, path: path)
        #expect(screen.status == 0, "\(screen.stderr)")
        #expect(screen.stdout.contains("Al Baik"), "the demo's order:\n\(screen.stdout)")
        #expect(!screen.stdout.contains("HOSTILE"), "the working folder's fixtures:\n\(screen.stdout)")
    }

    /// `--api` to a backend laid out before screens were data (no `screens/tracking.json`) gets the demo's own
    /// tracking definition, not the working folder's.
    @Test func theFallbackDefinitionIsTheDemosOwn() async throws {
        let folder = try Self.hostileFolder()
        let root = folder.url.appendingPathComponent("backend")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        try FileManager.default.removeItem(at: root.appendingPathComponent("screens/tracking.json"))
        let server = try TestServer.staticFiles(root)
        defer { server.stop() }
        for path in [folder.url.appendingPathComponent("bin").path, "/nonexistent"] {
            let command = path == "/nonexistent" ? "link/order-tracking" : "order-tracking"
            let screen = try await Self.run(
                "\(command) 1234 --plain --api \(server.baseURL.absoluteString)", in: folder.url, path: path)
            #expect(screen.status == 0, "\(screen.stderr)")
            #expect(screen.stdout.hasPrefix("Order 1234\n"), "the demo's definition:\n\(screen.stdout)")
            #expect(!screen.stdout.contains("HOSTILE"), "the working folder's definition:\n\(screen.stdout)")
        }
    }
}
