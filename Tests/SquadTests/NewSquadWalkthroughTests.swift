import Foundation
import SquadKit
import Testing

/// ARCHITECTURE.md §8 walked end to end in a real git repository holding the project's own manifest, registry,
/// CODEOWNERS, team list and fixture trees: a generated squad adds a checkout card and another a tracking card
/// (`squad new … --screen`). Each first pull request touches, outside the squad's own folders, only the declared
/// touch points (which the platform approves); the second (card text, a fixture, a new event, a test) passes the
/// gate on the squad's own approval alone. The build of such a squad is proven by Scripts/check-squad-new.
@Suite struct NewSquadWalkthroughTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let hostTree = "Apps/OrderTracking/Kit/Fixtures/api"

    /// The project's platform files and every fixture tree (the host's and the squads'), committed on main.
    static func repository() async throws -> GitRepository {
        let repo = try await GitRepository()
        let files = FileManager.default
        var paths = [
            "Package.swift", "CODEOWNERS", ".github/teams.json", "Apps/OrderTracking/Kit/Composition/Registry.swift",
        ]
        let modules = try files.contentsOfDirectory(atPath: root.appendingPathComponent("Modules").path)
        for tree in [hostTree] + modules.map({ "Modules/\($0)/Fixtures" }) {
            guard let walker = files.enumerator(atPath: root.appendingPathComponent(tree).path) else { continue }
            while let next = walker.nextObject() as? String {
                if next.hasSuffix(".json") { paths.append("\(tree)/\(next)") }
            }
        }
        for path in paths {
            try repo.write(path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
        try await repo.commit("base")
        return repo
    }

    /// A module name nothing in the project uses: "Squad" and eight random letters.
    static func generatedName() -> String {
        "Squad" + String((0..<8).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
    }

    @Test(arguments: [("checkout", "carts", ["C100", "C200", "C300"]), ("tracking", "orders", ["1234", "9012"])])
    func aNewSquadsCardShipsOnItsOwnApprovalFromTheSecondPullRequest(
        screen: String, collection: String, subjects: [String]
    ) async throws {
        let repo = try await Self.repository()
        let name = Self.generatedName()
        let (id, team) = (name.lowercased(), "@courier/\(name.lowercased())")
        try await repo.git("checkout", "-q", "-b", "first")
        let new = await repo.squad(["new", name, "--owner", team, "--screen", screen])
        #expect(new.status == 0, "\(new.output)\(new.errors)")
        try await repo.commit("\(name): a card on the \(screen) screen")

        // The first pull request: the squad's folders plus the declared touch points, which the platform approves.
        let changed = try await repo.git("diff", "--name-only", "main...HEAD").split(separator: "\n").map(String.init)
        let outside = changed.filter { !$0.hasPrefix("Modules/\(name)/") && !$0.hasPrefix("Tests/\(name)Tests/") }
        #expect(
            Set(outside) == [
                "Package.swift", "Apps/OrderTracking/Kit/Composition/Registry.swift", "CODEOWNERS",
                ".github/teams.json",
                "\(Self.hostTree)/screens/\(screen).json",
            ])
        let definition = try String(
            contentsOf: repo.root.appendingPathComponent("\(Self.hostTree)/screens/\(screen).json"), encoding: .utf8)
        #expect(definition.contains("\"\(id)\""), "the card joins the screen's definition")
        let component = try String(
            contentsOf: repo.root.appendingPathComponent("Modules/\(name)/\(name)Component.swift"), encoding: .utf8)
        #expect(component.contains("context.id(\"\(String(collection.dropLast()))\")"), "it reads the screen's subject")
        for subject in subjects {
            let fixture = "Modules/\(name)/Fixtures/\(collection)/\(subject)/\(id).json"
            #expect(changed.contains(fixture), "a fixture for every demo subject: \(fixture)")
        }
        let owned = [
            "Modules/\(name)/\(name)Component.swift", "Modules/\(name)/Interface/\(name)Events.swift",
            "Modules/\(name)/Fixtures/\(collection)/\(subjects[0])/\(id).json", "Tests/\(name)Tests/\(name)Tests.swift",
        ]
        let owners = await repo.squad(["owners"] + owned)
        #expect(owners.output == owned.map { "\($0)\t\(team)\n" }.joined(), "CODEOWNERS covers all its folders")
        let first = await repo.squad(["gate", "--base", "main", "--approved-by", team])
        #expect(first.status == 1)
        #expect(first.output.contains("Package.swift\tneeds one of @courier/platform\n"), "\(first.output)")
        let reviewed = await repo.squad([
            "gate", "--base", "main", "--approved-by", team, "--approved-by", "@courier/platform",
        ])
        #expect(reviewed.status == 0, "the platform reviews the touch points: \(reviewed.output)")
        try await repo.git("checkout", "-q", "main")
        try await repo.git("merge", "-q", "--ff-only", "first")

        // The second: card text, a fixture, a new event and a test, on the squad's approval alone.
        try await repo.git("checkout", "-q", "-b", "second")
        func edit(_ path: String, _ from: String, _ to: String) throws {
            let text = try String(contentsOf: repo.root.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(from), "\(path) holds \(from)")
            try repo.write(path, text.replacingOccurrences(of: from, with: to))
        }
        try edit(owned[0], "Block(title: \"\(name)\", rows", "Block(title: \"\(name) offers\", rows")
        try edit(
            owned[1], "extension AnyEventName {}",
            "extension AnyEventName {\n    public static let \(id)Chosen = EventName<Int>(\"\(id).chosen\")\n}")
        try edit(owned[2], "Hello from \(name)", "Hello again from \(name)")
        try edit(owned[3], "\"Hi\"", "\"Hello\"")
        try await repo.commit("\(name): its card says more")
        let second = await repo.squad(["gate", "--base", "main", "--approved-by", team])
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("may merge: 4 changed path(s)"), "\(second.output)")
    }
}
