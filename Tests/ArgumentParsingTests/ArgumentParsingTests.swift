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
        (["--plain=yes"], "option '--plain' takes no value"),
        (["--format"], "option '--format' needs a value: --format text|json"),
        (["--format="], "--format '' must be text or json"),
        (["--format", "jsno"], "--format 'jsno' must be text or json; did you mean 'json'?"),
        (["--fail", "time"], "--fail 'time' must be notfound or timeout"),
        (["--timeout", "0"], "--timeout '0' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (["--timeout", "-1"], "--timeout '-1' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (["--timeout", "601"], "--timeout '601' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (["--timeout", "soon"], "--timeout 'soon' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (
            ["--timeout", "1e9"],
            "--timeout '1e9' must be a number of seconds from 0.001 to 600 in plain decimal, e.g. --timeout 2.5"
        ),
        (
            ["--timeout", "soon\u{1B}[2J"],
            "--timeout 'soon␛[2J' must be a number of seconds from 0.001 to 600 in plain decimal, e.g. --timeout 2.5"
        ),
        (["--event", "=x"], "--event '=x' must be NAME=VALUE, e.g. --event order.status=delivered"),
        (["--event", "x="], "--event 'x=' must be NAME=VALUE, e.g. --event order.status=delivered"),
        (["--event", "x"], "--event 'x' must be NAME=VALUE, e.g. --event order.status=delivered"),
    ])
    func mistakesAreRefusedWhileParsingAndSayWhatToTypeInstead(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parser.parse(arguments) }
    }

    /// The habit of GNU tools and swift-argument-parser: an alias's value is overridden by the one typed after it.
    @Test func aRepeatedSingleValueOptionTakesItsLastValueAndARepeatableOneKeepsEvery() throws {
        let parsed = try parser.parse([
            "--timeout", "2", "--format=json", "--timeout=3", "--approved-by", "@a", "--plain", "--format", "text",
            "--plain", "--approved-by", "@b",
        ])
        #expect(parsed[Self.timeout] == .seconds(3))
        #expect(parsed.all(Self.timeout) == [.seconds(3)], "one value, the last")
        #expect(parsed[Self.format] == .text)
        #expect(parsed.isSet(Self.plain))
        #expect(parsed.all(Self.approvedBy) == ["@a", "@b"])
        // Every value is still checked: a mistake is never hidden by a later value.
        #expect(
            throws: UsageError(
                message: "--timeout 'x' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5")
        ) { try parser.parse(["--timeout", "x", "--timeout", "3"]) }
    }

    /// `-h` is `--help` wherever `--help` is accepted, and help lists both spellings.
    @Test func dashHIsHelp() throws {
        let parser = ArgumentParser(options: [Self.plain, OptionSpec.help])
        let parsed = try parser.parse(["x", "-h"])
        #expect(parsed.isSet(Option<Bool>.flag("--help", help: "")))
        #expect(parsed.positionals == ["x"])
        #expect(throws: UsageError(message: "option '-h' takes no value")) { try parser.parse(["-h=yes"]) }
        #expect(
            OptionSpec.helpLines([Self.plain.spec, OptionSpec.help])
                == "  --plain     no redraw\n  -h, --help  this text")
    }

    /// Seconds in plain decimal only: everything else `Double(String)` takes is refused with the same words, and
    /// told to use plain decimal when it was a number in another notation.
    @Test(arguments: [
        "0x10", "0X10", "0x1p4", "1e3", "1E3", "2e0", "1_0", "+5", "-5", "-0", "inf", "infinity", "nan", "NaN", "010",
        "00.5", "５", "٣", "1.5.2", " 5", "5 ", ".", "", "1,5", "0b1", "0o7",
    ])
    func secondsAreRefusedUnlessPlainDecimal(text: String) {
        #expect(plainDecimal(text) == nil)
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", text]) }
        let unsigned = text.hasPrefix("-") ? String(text.dropFirst()) : text
        let numeric = plainDecimal(unsigned) == nil && (Double(text) != nil || text.contains(where: \.isNumber))
        #expect(
            throws: UsageError(
                message: "--timeout '\(text)' must be a number of seconds from 0.001 to 600"
                    + (numeric ? " in plain decimal" : "") + ", e.g. --timeout 2.5")
        ) { try parser.parse(["--timeout=\(text)"]) }
    }

    /// Plain decimal is kept to the millisecond; the same number in another notation is refused.
    @Test(
        arguments: [
            ("16", 16_000, "0x10"), ("5", 5000, "+5"), ("0.5", 500, "5e-1"), (".5", 500, "+.5"), ("5.", 5000, "5.e0"),
            ("600", 600_000, "6e2"), ("0.001", 1, "1e-3"), ("10", 10_000, "010"), ("0", 0, "0x0"),
            ("2.0005", 2000, "2.0005e0"), ("3", 3000, "３"), ("1", 1000, "1_"),
        ] as [(String, Int64, String)])
    func plainDecimalSecondsAreKeptToTheMillisecondAndOtherNotationsRefused(
        text: String, milliseconds: Int64, twin: String
    ) throws {
        let wide = Option.seconds("--every", in: 0...600, help: "")
        #expect(try ArgumentParser(options: [wide]).parse(["--every", text])[wide] == .milliseconds(milliseconds))
        #expect(plainDecimal(text) != nil && plainDecimal(twin) == nil)
        #expect(
            throws: UsageError(
                message: "--every '\(twin)' must be a number of seconds from 0 to 600 in plain decimal")
        ) { try ArgumentParser(options: [wide]).parse(["--every", twin]) }
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
