import ArgumentParsing
import Testing

@Suite struct ArgumentParsingTests {
    static let format = OptionSpec("--format", .required("text|json"), help: "output format")
    static let plain = OptionSpec("--plain", help: "no redraw")
    static let every = OptionSpec("--every", .optionalNumber("SECONDS"))
    static let approvedBy = OptionSpec("--approved-by", .required("OWNER"))
    static let timeout = OptionSpec("--timeout", .required("SECONDS"))
    let parser = ArgumentParser(options: [format, plain, every, approvedBy, timeout], repeatable: ["--approved-by"])

    @Test func optionsValuesAndPositionalsInAnyOrder() throws {
        let parsed = try parser.parse(["1234", "--format", "json", "--plain", "--every=3", "x"])
        #expect(parsed.positionals == ["1234", "x"])
        #expect(parsed.options == ["--format": "json", "--plain": "", "--every": "3"])
        #expect(parsed.isSet(Self.plain) && !parsed.isSet(Self.approvedBy))
        #expect(parsed.value(Self.format) == "json" && parsed.value(Self.timeout) == nil)
    }

    @Test func anOptionalNumberNeverSwallowsAWord() throws {
        let parsed = try parser.parse(["--every", "9012x"])
        #expect(parsed.options["--every"] == "")
        #expect(parsed.positionals == ["9012x"])
    }

    @Test func doubleDashEndsOptionsAndRepeatableOptionsKeepEveryValue() throws {
        let parsed = try parser.parse(["--approved-by", "@a", "--approved-by=@b", "--", "--plain"])
        #expect(parsed.repeated["--approved-by"] == ["@a", "@b"])
        #expect(parsed.positionals == ["--plain"])
    }

    @Test(arguments: [
        (["--fromat", "json"], "unknown option '--fromat'; did you mean '--format'?"),
        (["--nope"], "unknown option '--nope'"),
        (["--plain", "--plain"], "option '--plain' given twice"),
        (["--plain=yes"], "option '--plain' takes no value"),
        (["--format"], "option '--format' needs a value: --format text|json"),
    ])
    func mistakesSayWhatToTypeInstead(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try parser.parse(arguments) }
    }

    @Test func idsThatCouldReachAPathAreRefused() throws {
        #expect(try validateID("order-12_a", kind: "order") == "order-12_a")
        for bad in ["", "../x", "a/b", "é", String(repeating: "1", count: 65)] {
            #expect(throws: UsageError.self) { try validateID(bad, kind: "order") }
        }
    }

    @Test func helpIsGeneratedFromTheSameSpecs() {
        #expect(
            OptionSpec.helpLines(parser.options) == """
                  --format text|json  output format
                  --plain             no redraw
                """)
        #expect(OptionSpec("--every", .optionalNumber("S")).synopsis == "--every [S]")
    }

    /// Options are read through their declarations, as typed values, with one wording for every mistake.
    @Test func typedAccessorsReadThroughTheDeclaration() throws {
        let parsed = try parser.parse(["--timeout", "2.5", "--approved-by", "@a", "--approved-by", "@b"])
        #expect(try parsed.seconds(Self.timeout, in: 0.001...600, default: .seconds(5)) == .milliseconds(2500))
        #expect(try parsed.seconds(Self.every, in: 0.1...60, default: .seconds(10)) == .seconds(10), "absent: default")
        #expect(parsed.values(Self.approvedBy) == ["@a", "@b"])
        #expect(try parsed.choice(Self.format, among: ["text", "json"], default: "text") == "text")
    }

    @Test(arguments: [
        (["--timeout", "0"], "--timeout '0' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (["--timeout", "1e9"], "--timeout '1e9' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (
            ["--timeout", "soon\u{1B}[2J"],
            "--timeout 'soon␛[2J' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"
        ),
    ])
    func aBadNumberOfSecondsNamesTheRange(arguments: [String], message: String) throws {
        let parsed = try parser.parse(arguments)
        #expect(throws: UsageError(message: message)) {
            try parsed.seconds(Self.timeout, in: 0.001...600, default: .seconds(5), example: "2.5")
        }
    }

    @Test func aBadChoiceListsTheChoicesAndSuggestsOne() throws {
        let parsed = try parser.parse(["--format", "jsno"])
        #expect(throws: UsageError(message: "--format 'jsno' must be text or json; did you mean 'json'?")) {
            try parsed.choice(Self.format, among: ["text", "json"], default: "text")
        }
    }
}
