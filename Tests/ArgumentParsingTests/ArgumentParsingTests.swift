import ArgumentParsing
import Testing

@Suite struct ArgumentParsingTests {
    let parser = ArgumentParser(
        options: [
            OptionSpec("--format", .required("text|json"), help: "output format"),
            OptionSpec("--plain", help: "no redraw"),
            OptionSpec("--every", .optionalNumber("SECONDS")),
            OptionSpec("--approved-by", .required("OWNER")),
        ], repeatable: ["--approved-by"])

    @Test func optionsValuesAndPositionalsInAnyOrder() throws {
        let parsed = try parser.parse(["1234", "--format", "json", "--plain", "--every=3", "x"])
        #expect(parsed.positionals == ["1234", "x"])
        #expect(parsed.options == ["--format": "json", "--plain": "", "--every": "3"])
        #expect(parsed.has("--plain") && !parsed.has("--approved-by"))
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
}
