import Core
import Foundation
import HostComposition
import ScreenRuntime
import Testing

/// The demo's subjects and trees, found the same way by any host (issue 58 moved them out of the app's Kit).
@Suite struct HostCompositionTests {
    /// A demo tree in a temporary folder: `carts/C100`, `carts/B7`, `carts/not an id` and a file `carts/A1`.
    func tree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        for folder in ["carts/C100", "carts/B7", "carts/not an id"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data().write(to: root.appendingPathComponent("carts/A1"))
        return root
    }

    @Test func aCardsFirstSubjectIsTheFirstFolderWhoseNameIsAnId() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let screen = ScreenDefinition(
            name: "checkout", title: "Checkout", inputs: ["cart"], entries: [ScreenEntry(id: "price")],
            actions: [
                {
                    var pay = ActionSpec(id: "pay")
                    pay.send = "carts/{cart}/pay"
                    return pay
                }()
            ])
        let subjects = DemoSubject.first(
            for: "price", registry: ComponentRegistry(), screen: screen, trees: [root.path])
        #expect(subjects == [DemoSubject(input: "cart", id: "B7")], "a file and a name that is no id are skipped")
        #expect(
            subjects.first?.line == "previewing with cart B7, the first demo cart; give --input cart=ID for another")
        #expect(DemoSubject.first(for: "price", registry: ComponentRegistry(), screen: nil, trees: [root.path]).isEmpty)
    }

    @Test func squadTreesAreTheOtherModulesBundlesBesideTheHosts() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        for bundle in [
            "Courier_Host.resources/Fixtures/api", "Courier_Promo.resources/Fixtures", "Other.resources/Fixtures",
        ] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(bundle), withIntermediateDirectories: true)
        }
        let host = root.path + "/Courier_Host.resources/Fixtures/api"
        let squads = EmbeddedTrees.squads(host: host, bundle: "Courier_Host") { "/nowhere" }
        #expect(squads.map(\.squad) == ["Promo"])
        #expect(squads.map(\.path) == [root.path + "/Courier_Promo.resources/Fixtures"])
    }
}
