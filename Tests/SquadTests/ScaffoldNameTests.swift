import ArgumentParsing
import CoreTesting
import Foundation
import SquadKit
import Testing

/// `squad new` refuses a name that would overwrite or take over another squad's files, checked against this
/// repository (nothing is written: the refusal comes before any file).
@Suite struct ScaffoldNameTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [
        ("Eta", "/1234/eta.json (an endpoint of another card) exists"),
        ("Payment", "/1234/payment.json (an endpoint of another card) exists"),
        ("Screen", "screen.json (an endpoint of another card) exists"),
        ("Account", "the card id 'account' is taken"),
        ("Payments", "a target or folder named 'Payments' exists"),
        ("PaymentsTests", "a target or folder named 'PaymentsTests' exists"),
        ("SquadKit", "a target or folder named 'SquadKit' exists"),
        ("PromoInterface", "a target or folder named 'PromoInterface' exists"),
        ("Swift", "reserved by Swift or its toolchain"),
        ("Foundation", "reserved by Swift or its toolchain"),
        ("Self", "reserved by Swift or its toolchain"),
        ("Any", "reserved by Swift or its toolchain"),
        ("Money", "the type Money, which the scaffold declares, exists"),
    ])
    func clashingNamesAreRefused(name: String, clash: String) {
        do {
            _ = try Scaffold(root: Self.root, name: name, owner: "@courier/x")
            Issue.record("\(name) was accepted")
        } catch let error as UsageError {
            #expect(error.message.contains(clash), "\(error.message)")
        } catch { Issue.record("\(error)") }
    }

    /// A module name no one uses here: tests never assume a name is free, since a squad may take any of them.
    static func freeName() -> String {
        while true {
            let name = "Free" + String((0..<10).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
            if (try? Scaffold(root: root, name: name, owner: "@courier/free")) != nil { return name }
        }
    }

    @Test func aFreeNameIsAccepted() throws {
        _ = try Scaffold(root: Self.root, name: Self.freeName(), owner: "@courier/free")
    }

    /// The demo's unknown card is an id kept for that purpose: no squad can register it and change the demo.
    @Test func theDemosUnknownCardIdIsReserved() throws {
        #expect(throws: UsageError.self) { try Scaffold(root: Self.root, name: "Unregistered", owner: "@x/y") }
        let layout = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Apps/OrderTracking/Kit/Fixtures/api/orders/3333/screen.json"), encoding: .utf8)
        #expect(layout.contains("\"unregistered\""), "the 3333 layout keeps its unknown card")
    }

    /// An id that a layout, a test's event or a doc's example already uses is refused, naming where.
    @Test(arguments: [
        (
            "Apps/Host/Kit/Fixtures/api/screens/home.json", #"{"components": ["a", {"id": "ID"}]}"#,
            "already lists a card"
        ),
        ("Apps/Host/Kit/Fixtures/api/ID/7/cart.json", "{}", "the fixture folder Apps/Host/Kit/Fixtures/api/ID/ ("),
        ("Apps/Host/Kit/Fixtures/api/carts/7/ID.json", "{}", "(an endpoint of another card) exists"),
        (
            "Tests/HostTests/EventTests.swift", #"let event = DomainEvent("ID.points", text: "5")"#,
            #":1 already uses "ID."#
        ),
        (
            "Tests/HostTests/LayoutTests.swift", "\n\nlet unknown = \"ID\"",
            #"Tests/HostTests/LayoutTests.swift:3 already uses "ID""#
        ),
        ("README.md", "Order 3333 skips an unknown `ID` card.", "README.md:1 already uses `ID`"),
    ])
    func anIdInUseAnywhereIsRefused(path: String, text: String, clash: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = Self.freeName()
        let id = name.lowercased()
        let file = folder.appendingPathComponent(path.replacingOccurrences(of: "ID", with: id))
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.replacingOccurrences(of: "ID", with: id).utf8).write(to: file)
        #expect(throws: Never.self) { try Scaffold(root: folder, name: Self.freeName(), owner: "@x/y") }
        do {
            _ = try Scaffold(root: folder, name: name, owner: "@x/y")
            Issue.record("\(name) was accepted although \(path) uses it")
        } catch let error as UsageError {
            #expect(error.message.contains(clash.replacingOccurrences(of: "ID", with: id)), "\(error.message)")
        }
    }

    /// Docs show `squad new Rewards` as §8's example; an example in a doc's prose does not take the name.
    @Test func anExampleInTheStepsDoesNotTakeTheName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = Self.freeName()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("`swift run squad new \(name)`, then add `\"\(name.lowercased())\"` to a layout.".utf8).write(
            to: folder.appendingPathComponent("ARCHITECTURE.md"))
        _ = try Scaffold(root: folder, name: name, owner: "@x/y")
    }

    @Test func exitCodesAndMessagesForAMissingOwnerOrAClash() throws {
        var output = ""
        var errors = ""
        let name = Self.freeName()
        let missing = SquadApp.run(["new", name], directory: Self.root, output: &output, errors: &errors)
        #expect(missing == 64)
        #expect(
            errors
                == "squad: new needs --owner OWNER: the owning team, e.g. @courier/rewards (see 'squad new --help')\n")
        errors = ""
        let clash = SquadApp.run(
            ["new", "Eta", "--owner", "@x/y"], directory: Self.root, output: &output, errors: &errors)
        #expect(clash == 64)
        #expect(errors.contains("cannot create module 'Eta'"))
        #expect(output.isEmpty)
    }
}

/// `squad new` writes files the repository's formatter and linter accept, for the longest name it allows.
@Suite struct ScaffoldFormatTests {
    @Test func theLongestNameScaffoldsLintCleanSwift() async throws {
        let root = ScaffoldNameTests.root
        let scratch = try TemporaryDirectory()
        let folder = scratch.url
        try scratch.copy(
            ["Package.swift", "Apps/OrderTracking/Kit/Composition/Registry.swift", "CODEOWNERS", ".swift-format"],
            from: root)
        let name = "AbcdefghijAbcdefghijAbcdefghij"
        var output = ""
        var errors = ""
        let status = SquadApp.run(
            ["new", name, "--owner", "@courier/growth"], directory: folder, output: &output, errors: &errors)
        #expect(status == 0, "\(errors)")
        #expect(errors.isEmpty, "the formatter ran: \(errors)")
        // The closing steps are ARCHITECTURE.md §8's, in order, for this name.
        let steps = output.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.dropFirst(2).prefix(2) }
        #expect(steps == ["2.", "3.", "4.", "5.", "6."], "\(output)")
        #expect(output.contains("Scripts/update-goldens \(name) "), "\(output)")
        #expect(
            output.contains("swift test --filter \(name)Tests && swift run order-tracking preview \(name.lowercased())")
        )
        let lint = try await ProcessRunner.run(
            "swift",
            [
                "format", "lint", "--strict", "Modules/\(name)/\(name)Component.swift",
                "Tests/\(name)Tests/\(name)Tests.swift",
            ],
            directory: folder, limit: .seconds(120))
        #expect(lint.status == 0, "\(lint.stderr)")
    }
}
