import ArgumentParsing
import Foundation
import Testing

@testable import OrderTrackingKit

/// `COMMAND --help` cannot drift from the parser: its OPTIONS section lists exactly the options the command
/// accepts, and its prose names none it would refuse.
@Suite struct HelpAgreementTests {
    static let names = OrderTrackingApp.commands.map(\.name)

    @Test(arguments: names)
    func theHelpListsExactlyTheOptionsTheCommandAccepts(name: String) throws {
        let command = try #require(OrderTrackingApp.commands.first { $0.name == name })
        let accepted = Set(command.options.map(\.name))
        let help = command.help
        let section = try #require(
            help.components(separatedBy: "\nOPTIONS\n").last?.components(separatedBy: "\n\n").first)
        let listed = Set(section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(
            listed == accepted,
            "listed but refused: \(listed.subtracting(accepted)); accepted but not listed: \(accepted.subtracting(listed))"
        )
        // The tool's main help (tracking's) also shows the other commands' usage lines; every other help names
        // only its own options.
        guard name != "track" else { return }
        let words = help.split { !($0.isLetter || $0 == "-") }.map(String.init)
        let mentioned = Set(words.filter { $0.hasPrefix("--") && $0.count > 2 })
        #expect(mentioned.isSubset(of: accepted), "named in the help but refused: \(mentioned.subtracting(accepted))")
    }

    /// What a person sees: `cancel --help` lists the options the cancel command takes, `--analytics` included.
    @Test func cancelHelpListsAnalyticsCacertAndNoColor() async {
        let run = await InProcess.run(["cancel", "--help"])
        #expect(run.status == 0)
        for option in ["--analytics FILE", "--cacert FILE", "--no-color", "--api URL", "--timeout SECONDS"] {
            #expect(run.stdout.contains("\n  " + option), "\(option)")
        }
    }
}
