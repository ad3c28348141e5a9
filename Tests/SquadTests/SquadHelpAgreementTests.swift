import ArgumentParsing
import Foundation
import Testing

@testable import SquadKit

/// `squad COMMAND --help` cannot drift from the parser: its OPTIONS section lists exactly the options the command
/// accepts, its prose names none it would refuse, and an option it refuses is one usage line, exit 64.
@Suite struct SquadHelpAgreementTests {
    static let names = SquadApp.commands.map(\.name)

    func squad(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        var output = ""
        var errors = ""
        let status = SquadApp.run(
            arguments, directory: FileManager.default.temporaryDirectory, stdin: { [] }, output: &output,
            errors: &errors)
        return (status, output, errors)
    }

    @Test(arguments: names)
    func theHelpListsExactlyTheOptionsTheCommandAccepts(name: String) throws {
        let command = try #require(SquadApp.commands.first { $0.name == name })
        let accepted = Set(command.options.flatMap { [$0.name] + $0.aliases })
        let help = squad([name, "--help"])
        #expect(help.status == 0 && help.errors.isEmpty)
        #expect(help.output.hasPrefix("usage: squad \(name)"))
        let section = try #require(help.output.components(separatedBy: "\nOPTIONS\n").last)
        // Each spelling in a line's first column: "-h, --help".
        let listed = Set(
            section.split(separator: "\n").flatMap { line in
                (line.drop { $0 == " " }.components(separatedBy: "  ").first ?? "").components(separatedBy: ", ")
                    .compactMap { $0.split(separator: " ").first.map(String.init) }
            })
        #expect(
            listed == accepted,
            "listed but refused: \(listed.subtracting(accepted)); accepted but not listed: \(accepted.subtracting(listed))"
        )
        for option in listed.sorted() {
            // After --help nothing runs; a value left out is "needs a value", never "unknown".
            #expect(!squad([name, "--help", option]).errors.contains("unknown option '\(option)'"))
        }
        let prose = help.output.components(separatedBy: "\nOPTIONS\n").first ?? ""
        let words = prose.split { !($0.isLetter || $0 == "-") }.map(String.init)
        let mentioned = Set(words.filter { $0.hasPrefix("-") && $0.count > 1 && $0 != "-" }).subtracting(["--"])
        #expect(mentioned.isSubset(of: accepted), "named in the help but refused: \(mentioned.subtracting(accepted))")
    }

    @Test(arguments: names)
    func anOptionTheCommandRefusesIsOneUsageLineAndExit64(name: String) {
        let run = squad([name, "--no-such-option"])
        #expect(run.status == 64, "\(name)")
        #expect(run.output.isEmpty)
        #expect(run.errors == "squad: unknown option '--no-such-option' (see 'squad \(name) --help')\n")
    }

    /// The README's squad block is `squad --help`'s command list, generated from the declarations.
    @Test func theReadmesSynopsisIsTheGeneratedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "\n## squad").last?.components(separatedBy: "```").dropFirst().first)
        #expect(
            block == "\n" + SquadApp.synopsis + "\n",
            "README.md's squad block differs from squad --help; replace it with:\n\(SquadApp.synopsis)")
        #expect(squad(["--help"]).output.contains("\n\n" + SquadApp.synopsis + "\n\n"))
    }
}
