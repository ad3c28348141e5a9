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

/// The README's synopsis (its `order-tracking` block) and `--help`'s USAGE agree with the commands: every command
/// is there, and every option a line names is one that command accepts. CI runs it with the tests.
@Suite struct SynopsisAgreementTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The lines of `text` that start a command's synopsis (`order-tracking WORD …`), by command name (a line
    /// that starts with an ORDER-ID is tracking's), with the option lines under each (`--api URL …`, `[--event …]`).
    static func synopses(_ text: String) -> [String: [String]] {
        var found: [String: [String]] = [:]
        let names = Set(OrderTrackingApp.commands.map(\.name))
        var current: String?
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("order-tracking ") {
                let words = line.split(separator: " ").map(String.init)
                current = names.contains(words[1]) ? words[1] : "track"
            } else if !(line.hasPrefix("--") || line.hasPrefix("[")) {
                continue  // prose under a line, never an option list
            }
            if let current { found[current, default: []].append(line) }
        }
        return found
    }

    func check(_ synopses: [String: [String]], in source: String) throws {
        for command in OrderTrackingApp.commands where command.name != "track" {
            #expect(synopses[command.name] != nil, "\(source) has no synopsis line for '\(command.name)'")
        }
        for (name, lines) in synopses {
            let command = try #require(OrderTrackingApp.commands.first { $0.name == name })
            let accepted = Set(command.options.map(\.name))
            for line in lines {
                let options = line.split { !($0.isLetter || $0 == "-") }.map(String.init).filter {
                    $0.hasPrefix("--") && $0.count > 2
                }
                for option in options where !accepted.contains(option) {
                    Issue.record("\(source): '\(line)' names \(option), which '\(name)' refuses")
                }
            }
        }
    }

    @Test func theReadmesSynopsisNamesEveryCommandAndOnlyOptionsItAccepts() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "## order-tracking\n").last?.components(
                separatedBy: "```"
            ).dropFirst().first)
        try check(Self.synopses(block), in: "README.md")
    }

    @Test func theHelpsUsageNamesEveryCommandAndOnlyOptionsItAccepts() throws {
        let usage = try #require(
            Help.main.components(separatedBy: "USAGE\n").last?.components(separatedBy: "\n\n").first)
        try check(Self.synopses(usage), in: "order-tracking --help")
    }
}
