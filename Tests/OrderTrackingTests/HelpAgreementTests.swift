import ArgumentParsing
import Foundation
import Testing

@testable import OrderTrackingKit

/// `order-tracking COMMAND --help` cannot drift from the parser: its OPTIONS section lists exactly the options the
/// command accepts, its prose names none it would refuse, and a mistake in any command is one line, exit 64.
@Suite struct HelpAgreementTests {
    static let names = OrderTrackingApp.commands.map(\.name)

    /// The option names an OPTIONS section lists: each spelling in the first column ("-h, --help") of a line
    /// that starts with "-".
    static func listed(_ help: String) throws -> Set<String> {
        let section = try #require(
            help.components(separatedBy: "\nOPTIONS\n").last?.components(separatedBy: "\n\n").first)
        return Set(
            section.split(separator: "\n").flatMap { line in
                let column = line.drop { $0 == " " }.components(separatedBy: "  ").first ?? ""
                return column.hasPrefix("-")
                    ? column.components(separatedBy: ", ").compactMap {
                        $0.split(separator: " ").first.map(String.init)
                    }
                    : []
            })
    }

    @Test(arguments: names)
    func theHelpAPersonSeesListsExactlyTheOptionsTheCommandAccepts(name: String) async throws {
        let command = try #require(OrderTrackingApp.commands.first { $0.name == name })
        let run = await InProcess.run([name, "--help"])
        #expect(run.status == 0 && run.stderr.isEmpty)
        let accepted = Set(command.options.flatMap { [$0.name] + $0.aliases })
        let listed = try Self.listed(run.stdout)
        #expect(
            listed == accepted,
            "listed but refused: \(listed.subtracting(accepted)); accepted but not listed: \(accepted.subtracting(listed))"
        )
        // Every listed option really is accepted (after --help nothing runs; a value left out is "needs a value").
        for option in listed.sorted() {
            let mistake = await InProcess.run([name, "--help", option])
            #expect(!mistake.stderr.contains("unknown option '\(option)'"), "\(name) \(option)")
        }
        // The tool's main help (tracking's) also shows the other commands' summaries; every other help names
        // only its own options.
        guard name != "track" else { return }
        let words = run.stdout.split { !($0.isLetter || $0 == "-") }.map(String.init)
        let mentioned = Set(words.filter { $0.hasPrefix("--") && $0.count > 2 })
        #expect(mentioned.isSubset(of: accepted), "named in the help but refused: \(mentioned.subtracting(accepted))")
    }

    @Test(arguments: names)
    func anOptionTheCommandRefusesIsOneUsageLineAndExit64(name: String) async {
        let run = await InProcess.run([name, "--no-such-option"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == "order-tracking: unknown option '--no-such-option' (see 'order-tracking \(name) --help')\n")
    }

    /// What a person sees: `cancel --help` lists the options the cancel command takes, `--analytics` included.
    @Test func cancelHelpListsAnalyticsCacertAndNoColor() async {
        let run = await InProcess.run(["cancel", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("usage: order-tracking cancel ORDER-ID [options]\n"))
        for option in ["--analytics FILE", "--cacert FILE", "--no-color", "--api URL", "--timeout SECONDS"] {
            #expect(run.stdout.contains("\n  " + option), "\(option)")
        }
    }
}

/// The README's synopsis (its `order-tracking` block) is the USAGE and OPTIONS that `order-tracking --help`
/// prints, generated from the declarations; CI runs it with the tests.
@Suite struct SynopsisAgreementTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReadmesSynopsisIsTheGeneratedHelp() async throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "## order-tracking\n").last?.components(separatedBy: "```").dropFirst()
                .first)
        let help = await InProcess.run(["--help"]).stdout
        let generated = try #require(
            help.components(separatedBy: "\nUSAGE\n").last?.components(separatedBy: "\n\nKEYS").first)
        #expect(
            block == "\nUSAGE\n" + generated + "\n",
            "README.md's order-tracking block differs from --help; replace it with:\nUSAGE\n\(generated)")
        // Every command has its line.
        for name in OrderTrackingApp.commands.map(\.name) where name != "track" {
            #expect(generated.contains("order-tracking \(name) "), "\(name)")
        }
    }
}
