import CodeOwnership
import Foundation
import Testing

@testable import SquadKit

/// `squad owners -` answers a listing a round at a time: every path once, in order, in one valid JSON array or
/// one line each, however many rounds it takes; and a reader that has gone away stops it after the round it
/// was written.
@Suite struct OwnersListingTests {
    static let owners = CodeOwners(text: "* @org/all\n/docs/ @org/docs\n*.md @org/writers\n")

    /// Two full rounds and part of a third, whatever the machine's cores; a few names need quoting.
    static func listing(_ count: Int) -> (paths: OwnersQuery.Paths, names: [String]) {
        var paths = OwnersQuery.Paths()
        var names: [String] = []
        for number in 0..<count {
            let name: String
            switch number % 5 {
            case 0: name = "docs/guide\(number).md"
            case 1: name = "src/file\(number).swift"
            case 2: name = "docs/café\(number).txt"
            case 3: name = "notes/n\(number).md"
            default: name = "docs/tab\t\(number)"
            }
            names.append(name)
            paths.entries.append(.path(Array(name.utf8)))
        }
        return (paths, names)
    }

    static func owners(of name: String) -> [String] { owners.ownership(ofBytes: Array(name.utf8)).owners }

    @Test func everyPathIsAnsweredOnceInOrderAcrossRounds() throws {
        let count = 2 * OwnersListing.pathsPerRound + 17
        let (paths, names) = OwnersListingTests.listing(count)
        var chunks: [String] = []
        OwnersListing(owners: OwnersListingTests.owners, json: true).write(paths, to: { chunks.append($0) })
        #expect(chunks.count == 3)
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(chunks.joined().utf8)) as? [[String: Any]])
        #expect(array.count == count)
        #expect(array.map { $0["path"] as? String } == names)
        #expect(array.map { $0["owners"] as? [String] } == names.map(OwnersListingTests.owners))

        var text = ""
        OwnersListing(owners: OwnersListingTests.owners, json: false).write(paths, to: { text += $0 })
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        #expect(
            lines.dropLast()
                == names.map { PathBytes.quoted($0) + "\t" + OwnersListingTests.owners(of: $0).joined(separator: " ") })
        #expect(lines[0] == "docs/guide0.md\t@org/writers")
        #expect(lines[2] == "\"docs/caf\\303\\2512.txt\"\t@org/docs")
        #expect(lines[4] == "\"docs/tab\\t4\"\t@org/docs")
    }

    @Test func aReaderThatHasGoneStopsTheListingAfterOneRound() {
        let (paths, _) = OwnersListingTests.listing(3 * OwnersListing.pathsPerRound)
        var writes = 0
        OwnersListing(owners: OwnersListingTests.owners, json: false)
            .write(paths, to: { _ in writes += 1 }, stopped: { writes > 0 })
        #expect(writes == 1)
    }

    @Test(arguments: [(true, "[]\n"), (false, "")])
    func noPathsIsAnEmptyAnswer(json: Bool, expected: String) {
        var text = ""
        OwnersListing(owners: OwnersListingTests.owners, json: json).write(OwnersQuery.Paths(), to: { text += $0 })
        #expect(text == expected)
    }
}
