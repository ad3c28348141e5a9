import ArgumentParsing
import Foundation
import Testing

@testable import SquadKit

/// `squad new --screen` reads the screen the card joins from the host's definition, refuses one the host does not
/// define, and lists the card in the definition's `components` in the list's own layout, before its last card.
@Suite struct ScaffoldScreenTests {
    @Test func theSubjectAndItsDemoIdsComeFromTheDefinition() throws {
        let checkout = try ScaffoldScreen.read("checkout", root: ScaffoldNameTests.root)
        #expect(checkout.subject == "cart" && checkout.collection == "carts")
        #expect(checkout.subjects == ["C100", "C200", "C300"])
        let tracking = try ScaffoldScreen.read("tracking", root: ScaffoldNameTests.root)
        #expect(tracking.subject == "order" && tracking.subjects.contains("1234") && tracking.subjects.contains("4242"))
    }

    /// A demo subject is a folder whose name is an id, the rule `preview` picks its first one by: a file, a hidden
    /// folder or a name no command line could give is none.
    @Test func aDemoSubjectIsAFolderWhoseNameIsAnId() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let api = root.appendingPathComponent(ScaffoldScreen.hostTree)
        try FileManager.default.createDirectory(
            at: api.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try Data(#"{"inputs": ["cart"], "components": ["total"]}"#.utf8).write(
            to: api.appendingPathComponent("screens/checkout.json"))
        for folder in ["carts/C100", "Modules/Promo/Fixtures/carts/B7", "carts/.git", "carts/not an id"] {
            let url =
                folder.hasPrefix("Modules") ? root.appendingPathComponent(folder) : api.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try Data().write(to: api.appendingPathComponent("carts/A1"))
        #expect(try ScaffoldScreen.read("checkout", root: root).subjects == ["B7", "C100"])
    }

    @Test func aScreenTheHostDoesNotDefineIsAUsageErrorNamingThoseItDoes() {
        var output = ""
        var errors = ""
        let status = SquadApp.run(
            ["new", "Tipjar", "--owner", "@courier/tips", "--screen", "basket"], directory: ScaffoldNameTests.root,
            output: &output, errors: &errors)
        #expect(status == 64)
        #expect(
            errors.contains(
                "no screen 'basket' in Apps/OrderTracking/Kit/Fixtures/api/screens; the screens are checkout, tracking"),
            "\(errors)")
        #expect(output.isEmpty, "nothing was written")
    }

    @Test func theCardIsListedBeforeTheLastCardInTheListsOwnLayout() {
        let oneLine = #"{"inputs": ["order"], "components": ["tabs", "order", "account"], "actions": []}"#
        #expect(
            ScaffoldScreen.listing("tips", in: oneLine)
                == #"{"inputs": ["order"], "components": ["tabs", "order", "tips", "account"], "actions": []}"#)
        let lines = "{\n  \"components\": [\n    \"cart\",\n    {\"id\": \"total\", \"critical\": true}\n  ]\n}\n"
        #expect(
            ScaffoldScreen.listing("tips", in: lines)
                == "{\n  \"components\": [\n    \"cart\",\n    \"tips\",\n    {\"id\": \"total\", \"critical\": true}\n  ]\n}\n"
        )
        #expect(ScaffoldScreen.listing("tips", in: #"{"components": []}"#) == #"{"components": ["tips"]}"#)
        #expect(ScaffoldScreen.listing("tips", in: #"{"title": "no list"}"#) == nil)
    }
}
