import ArgumentParsing
import Foundation
import Testing

@testable import SquadKit

/// `squad COMMAND --help` cannot drift from the parser: its OPTIONS section lists exactly the options the command
/// accepts, its prose names none it would refuse, and an option it refuses is one usage line, exit 64.
@Suite struct SquadHelpAgreementTests {
    static let names = SquadApp.commands.map(\.name)

    @Test(arguments: names)
    func theHelpListsExactlyTheOptionsTheCommandAccepts(name: String) throws {
        let command = try #require(SquadApp.commands.first { $0.name == name })
        let accepted = Set(command.options.map(\.name))
        let help = command.declaration.help
        let section = try #require(help.components(separatedBy: "\n\n").last)
        let listed = Set(section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(
            listed == accepted,
            "listed but refused: \(listed.subtracting(accepted)); accepted but not listed: \(accepted.subtracting(listed))"
        )
        let prose = help.components(separatedBy: "\n\n").dropLast().joined(separator: " ")
        let words = prose.split { !($0.isLetter || $0 == "-") }.map(String.init)
        let mentioned = Set(words.filter { $0.hasPrefix("-") && $0.count > 1 && $0 != "-" }).subtracting(["--"])
        #expect(mentioned.isSubset(of: accepted), "named in the help but refused: \(mentioned.subtracting(accepted))")
    }

    @Test(arguments: names)
    func anOptionTheCommandRefusesIsOneUsageLineAndExit64(name: String) {
        let directory = FileManager.default.temporaryDirectory
        var output = ""
        var errors = ""
        let status = SquadApp.run(
            [name, "--no-such-option"], directory: directory, stdin: { "" }, output: &output, errors: &errors)
        #expect(status == 64, "\(name)")
        #expect(output.isEmpty)
        let lines = errors.split(separator: "\n")
        #expect(lines.first?.contains("--no-such-option") == true, "\(errors)")
        #expect(lines.count <= 2, "one line, and at most the pointer to --help: \(errors)")
    }
}
