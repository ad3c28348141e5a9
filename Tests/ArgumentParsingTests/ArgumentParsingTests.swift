import ArgumentParsing
import Testing

@Suite struct ArgumentParsingTests {
    enum Fault: String, CaseIterable, Sendable { case notfound, timeout }

    static let format = Option<OutputFormat>.choice("--format", help: "output format")
    static let plain = Option.flag("--plain", help: "no redraw")
    static let approvedBy = Option.text("--approved-by", "OWNER", repeatable: true, help: "an approval")
    static let timeout = Option.seconds("--timeout", in: 0.001...600, example: "2.5", help: "deadline")
    static let fault = Option<Fault>.choice("--fail", help: "a fault")
    static let event = Option.pairs("--event", example: "order.status=delivered", help: "an event")
    let parser = ArgumentParser(options: [format, plain, approvedBy, timeout, fault, event])

    @Test func optionsValuesAndPositionalsInAnyOrderAsTypedValues() throws {
        let parsed = try parser.parse(["1234", "--format", "json", "--plain", "--timeout=2.5", "x", "--fail=timeout"])
        #expect(parsed.positionals == ["1234", "x"])
        #expect(parsed[Self.format] == .json)
        #expect(parsed[Self.timeout] == .milliseconds(2500))
        #expect(parsed[Self.fault] == .timeout)
        #expect(parsed.isSet(Self.plain) && !parsed.isSet(Self.approvedBy))
        #expect(parsed[Self.approvedBy] == nil && parsed[Self.approvedBy, default: "@x"] == "@x")
    }

    @Test func doubleDashEndsOptionsAndRepeatableOptionsKeepEveryValue() throws {
        let parsed = try parser.parse([
            "--approved-by", "@a", "--approved-by=@b", "--event", "a.b=c=d", "--event=x=y", "--", "--plain",
        ])
        #expect(parsed.all(Self.approvedBy) == ["@a", "@b"])
        #expect(parsed.all(Self.event) == [NamedValue("a.b", "c=d"), NamedValue("x", "y")])
        #expect(parsed.positionals == ["--plain"])
        #expect(!parsed.isSet(Self.plain))
    }

    @Test(arguments: [
        (["--fromat", "json"], "unknown option '--fromat'; did you mean '--format'?"),
        (["--nope"], "unknown option '--nope'"),
        (["--no\u{1B}[2J"], "unknown option '--no␛[2J'"),
        (["--plain", "--plain"], "option '--plain' given twice"),
        (["--format", "json", "--format=text"], "option '--format' given twice"),
        (["--plain=yes"], "option '--plain' takes no value"),
        (["--format"], "option '--format' needs a value: --format text|json"),
        (["--format="], "--format '' must be text or json"),
        (["--format", "jsno"], "--format 'jsno' must be text or json; did you mean 'json'?"),
        (["--fail", "time"], "--fail 'time' must be notfound or timeout"),
        (["--timeout", "0"], "--timeout '0' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (["--timeout", "1e9"], "--timeout '1e9' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (
            ["--timeout", "soon\u{1B}[2J"],
            "--timeout 'soon␛[2J' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"
        ),
        (["--event", "=x"], "--event '=x' must be NAME=VALUE, e.g. --event order.status=delivered"),
        (["--event", "x="], "--event 'x=' must be NAME=VALUE, e.g. --event order.status=delivered"),
        (["--event", "x"], "--event 'x' must be NAME=VALUE, e.g. --event order.status=delivered"),
    ])
    func mistakesAreRefusedWhileParsingAndSayWhatToTypeInstead(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parser.parse(arguments) }
    }

    @Test func aConverterMayRefuseAValueWithItsOwnWords() throws {
        let id = Option("--order", "ID", help: "an order") { (text: String) throws(UsageError) -> String in
            try validateID(text, kind: "order")
        }
        #expect(try ArgumentParser(options: [id.spec]).parse(["--order", "a-1"])[id] == "a-1")
        #expect(throws: UsageError(message: "invalid order id 'a/b': use 1 to 64 letters, digits, '-' or '_'")) {
            try ArgumentParser(options: [id.spec]).parse(["--order", "a/b"])
        }
    }

    @Test func idsThatCouldReachAPathAreRefused() throws {
        #expect(try validateID("order-12_a", kind: "order") == "order-12_a")
        for bad in ["", "../x", "a/b", "é", String(repeating: "1", count: 65)] {
            #expect(throws: UsageError.self) { try validateID(bad, kind: "order") }
        }
    }

    @Test func helpLinesAreGeneratedFromTheSameDeclarationsWithContinuationLines() {
        let every = Option.seconds("--every", in: 1...9, help: "first line\nsecond line")
        #expect(
            OptionSpec.helpLines([Self.format.spec, Self.plain.spec, every.spec]) == """
                  --format text|json  output format
                  --plain             no redraw
                  --every SECONDS     first line
                                      second line
                """)
    }

    @Test func aUsageErrorIsOneLineThatPointsAtTheCommandsHelp() {
        #expect(
            UsageError(message: "bad\nthing", command: "cancel").line(tool: "tool")
                == "tool: bad␊thing (see 'tool cancel --help')")
        #expect(UsageError(message: "bad").line(tool: "tool") == "tool: bad (see 'tool --help')")
    }
}
