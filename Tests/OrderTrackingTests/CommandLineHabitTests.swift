import ArgumentParsing
import Foundation
import Testing

@testable import OrderTrackingKit

/// What a person types out of habit from other tools: `-h`, options before the command, an option given twice
/// (an alias plus an override), and numbers only in plain decimal. Each runs the real dispatch in-process.
@Suite struct CommandLineHabitTests {
    /// `-h` is `--help` alone, after an id, after a command, before a command and as `help`'s topic.
    @Test(arguments: [
        (["-h"], ["--help"]), (["1234", "-h"], ["--help"]), (["-h", "1234", "--watch"], ["--help"]),
        (["checkout", "C100", "-h"], ["help", "checkout"]), (["-h", "checkout", "C100"], ["checkout", "--help"]),
        (["--plain", "checkout", "-h"], ["checkout", "--help"]), (["cancel", "-h"], ["help", "cancel"]),
        (["help", "-h"], ["--help"]), (["screen", "-h"], ["screen", "--help"]),
    ])
    func dashHIsHelpEverywhereHelpWorks(arguments: [String], same: [String]) async {
        let short = await InProcess.run(arguments)
        let long = await InProcess.run(same)
        #expect(short.status == 0 && short.stderr.isEmpty, "\(arguments): \(short.stderr)")
        #expect(short.stdout == long.stdout && !short.stdout.isEmpty, "\(arguments)")
    }

    /// Options before the command name apply to it: the command is the first word that is not an option or an
    /// option's value, so the 3 of `--timeout 3` is never taken for the command.
    @Test(arguments: [
        (["--plain", "checkout", "C100"], ["checkout", "C100", "--plain"]),
        (["--timeout", "3", "checkout", "C100"], ["checkout", "C100", "--timeout", "3"]),
        (["--timeout=3", "--plain", "checkout", "C100"], ["checkout", "C100", "--plain", "--timeout", "3"]),
        (["--format", "json", "checkout", "C100"], ["checkout", "C100", "--format", "json"]),
        (["--promo", "SAVE10", "checkout", "C100"], ["checkout", "C100", "--promo", "SAVE10"]),
        (["--plain", "track", "1234"], ["1234", "--plain"]), (["--plain", "1234"], ["1234", "--plain"]),
        (["--format", "json", "cancel", "3333"], ["cancel", "3333", "--format", "json"]),
        (["--format", "json", "components"], ["components", "--format", "json"]),
    ])
    func optionsBeforeTheCommandApplyToIt(before: [String], after: [String]) async {
        let early = await InProcess.run(before)
        let late = await InProcess.run(after)
        #expect(early.stderr == late.stderr, "\(before)")
        #expect(early.status == late.status && late.status != 64, "\(before): \(early.stderr)")
        #expect(early.stdout == late.stdout && !early.stdout.isEmpty, "\(before)")
    }

    @Test func optionsBeforeTheCommandAreCheckedAgainstThatCommand() async {
        let run = await InProcess.run(["--watch", "logout"])
        #expect(run.status == 64)
        #expect(run.stderr == "order-tracking: unknown option '--watch' (see 'order-tracking logout --help')\n")
        let typo = await InProcess.run(["--plain", "chekout", "C100"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("order-tracking: unknown command 'chekout'; did you mean 'checkout'?"))
    }

    /// The 9012 rider endpoint answers after 1.5 s: with a 1 s deadline its card is hidden (2), with 3 s every
    /// card shows (0). The last `--timeout` decides, wherever the two are.
    @Test(
        arguments: [
            (["9012", "--timeout", "1", "--timeout", "3"], 0), (["9012", "--timeout", "3", "--timeout", "1"], 2),
            (["--timeout", "1", "track", "9012", "--timeout=3"], 0), (["--timeout", "3", "9012", "--timeout", "1"], 2),
            (["--timeout", "1", "track", "9012"], 2), (["--timeout", "3", "track", "9012"], 0),
        ] as [([String], Int32)])
    func theLastValueOfARepeatedOptionWins(arguments: [String], status: Int32) async {
        let run = await InProcess.run(arguments + ["--plain"])
        #expect(run.status == status, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.contains("given twice"))
    }

    /// A repeatable option keeps every value, and the screen's own check still refuses one input given twice.
    @Test func aRepeatedInputKeyIsStillRefused() async {
        let run = await InProcess.run(["--input", "cart=C100", "screen", "checkout", "--input", "cart=C200"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--input cart given twice ('C100' and 'C200'); give each input once"))
    }

    /// Seconds in plain decimal only: hexadecimal, exponents, signs, separators, `inf`/`nan`, a leading zero
    /// and non-ASCII digits are usage errors (64) that say so; `.5` and `5.` are decimal.
    @Test(arguments: ["0x10", "0x1p4", "1e1", "+5", "-.5e1", "1_0", "inf", "nan", "010", "５", "٥"])
    func secondsInAnotherNotationAreRefused(text: String) async {
        for option in ["--timeout", "--every"] {
            let run = await InProcess.run(["1234", "--watch", option, text])
            #expect(run.status == 64, "\(option) \(text)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("order-tracking: \(option) '\(text)' must be a number of seconds from "))
            #expect(run.stderr.contains(" in plain decimal"), "\(run.stderr)")
        }
    }

    /// `.5` and `5.` are plain decimal and run; the same number in another notation is refused.
    @Test(arguments: [(".5", "+.5"), ("5.", "5e0"), ("0.5", "00.5"), ("3", "0x3"), ("16", "0x10")])
    func plainDecimalSecondsRunAndTheirTwinsAreRefused(decimal: String, twin: String) async {
        let run = await InProcess.run(["1234", "--plain", "--timeout", decimal])
        #expect(run.status == 0, "\(decimal): \(run.stderr)")
        let refused = await InProcess.run(["1234", "--plain", "--timeout", twin])
        #expect(refused.status == 64 && refused.stderr.contains(" in plain decimal"), "\(twin): \(refused.stderr)")
    }

    /// Every option of every command may come before the command's name, even with a value that is itself a
    /// command's name (`--timeout preview checkout`): the dispatch picks that command (its run, its help, or a
    /// usage error that names it). This also holds an option name to one shape (a value or none) in every
    /// command, which the dispatch relies on to know which word is a value.
    @Test func everyOptionOfEveryCommandMayComeBeforeIt() {
        let commands = OrderTrackingApp.commands
        for (index, command) in commands.enumerated() {
            for option in command.options {
                // The value is another command's name: only the dispatch's knowledge of values tells them apart.
                let value = option.placeholder == nil ? [] : [commands[(index + 1) % commands.count].name]
                let arguments = [option.name] + value + [command.name]
                let chosen: String?
                do {
                    switch try Invocation.of(
                        arguments, tool: "order-tracking", commands: OrderTrackingApp.commands, usage: "usage",
                        fallback: "track")
                    {
                    case .run(let declaration, _): chosen = declaration.name
                    case .help(let text):
                        chosen =
                            text == "usage"
                            ? "track"
                            : text.hasPrefix("usage: order-tracking \(command.name) ")
                                ? command.name : text
                    }
                } catch { chosen = error.command }
                #expect(chosen == command.name, "\(arguments)")
            }
        }
    }
}
