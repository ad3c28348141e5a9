import CodeOwnership
import CoreTesting
import Foundation
import Testing

/// Finding a repository's CODEOWNERS from anywhere inside it, in GitHub's order of places.
@Suite struct LocateTests {
    @Test func theNearestFolderWithACodeOwnersFileWinsFromAnyDepth() throws {
        let tree = try TemporaryDirectory()
        try tree.write("* @courier/platform\n", to: ".github/CODEOWNERS")
        try tree.write("* @decoy\n", to: "docs/CODEOWNERS")
        try tree.write("x", to: "Modules/Payments/Sources/a.swift")
        let deep = tree.url.appendingPathComponent("Modules/Payments/Sources")
        let found = try #require(CodeOwners.locate(from: deep))
        #expect(
            found.resolvingSymlinksInPath().path == tree.url.resolvingSymlinksInPath().path + "/.github/CODEOWNERS",
            "the repository's own file, and .github/ before docs/")
    }

    @Test func aFolderNamedCodeOwnersIsNotTheFile() throws {
        let tree = try TemporaryDirectory()
        try tree.write("x", to: "CODEOWNERS/inside")
        try tree.write("* @courier/platform\n", to: "docs/CODEOWNERS")
        #expect(CodeOwners.locate(from: tree.url)?.path.hasSuffix("docs/CODEOWNERS") == true)
    }
}
