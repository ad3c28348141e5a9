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

    @Test func aFreeNameIsAccepted() throws {
        _ = try Scaffold(root: Self.root, name: "Rewards", owner: "@courier/rewards")
    }

    @Test func exitCodesAndMessagesForAMissingOwnerOrAClash() throws {
        var output = ""
        var errors = ""
        let missing = SquadApp.run(["new", "Rewards"], directory: Self.root, output: &output, errors: &errors)
        #expect(missing == 64)
        #expect(errors.hasPrefix("squad: missing --owner (e.g. --owner @courier/rewards)\n"))
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
    @Test func theLongestNameScaffoldsLintCleanSwift() throws {
        let root = ScaffoldNameTests.root
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in ["Package.swift", "Apps/OrderTracking/Kit/Registry.swift", "CODEOWNERS", ".swift-format"] {
            let target = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(file), to: target)
        }
        let name = "AbcdefghijAbcdefghijAbcdefghij"
        var output = ""
        var errors = ""
        let status = SquadApp.run(
            ["new", name, "--owner", "@courier/growth"], directory: folder, output: &output, errors: &errors)
        #expect(status == 0, "\(errors)")
        #expect(errors.isEmpty, "the formatter ran: \(errors)")
        let lint = try ProcessRunner.run(
            "swift",
            [
                "format", "lint", "--strict", "Modules/\(name)/\(name)Component.swift",
                "Tests/\(name)Tests/\(name)Tests.swift",
            ],
            directory: folder, limit: .seconds(120))
        #expect(lint.status == 0, "\(lint.stderr)")
    }
}
