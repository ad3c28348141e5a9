import Core
import Foundation
import JSON
import SafeText
import Testing

@Suite struct JSONParserTests {
    static let valid = [
        #"{"a": 1, "b": [true, false, null], "c": {"d": "e"}}"#, "[]", "{}", "0", "-0", "-12.5e+3", "1E2", "0.001",
        #""\u00e9\ud83d\ude00 \" \\ \/ \b\f\n\r\t""#, "  [ 1 ,2 ]\n", #""héllo wörld""#,
        "123456789012345678", #"[[[[[["deep"]]]]]]"#, "\u{FEFF}[1]",
    ]

    @Test(arguments: valid)
    func agreesWithJSONDecoderOnValidText(text: String) throws {
        let data = Data(text.utf8)
        #expect(try JSONValue(parsing: data) == JSONDecoder().decode(JSONValue.self, from: data))
    }

    @Test(arguments: [
        ("", 0, "unexpected end of input"), ("[1,]", 3, "expected a value"), ("{\"a\" 1}", 5, "expected ':'"),
        ("01", 0, "leading zero"), ("1.", 2, "expected a digit after '.'"), ("1e", 2, "exponent"),
        ("-", 1, "expected a digit"), ("\"abc", 4, "unterminated string"), ("\"a\u{01}\"", 2, "control character"),
        (#""\x""#, 2, "unknown escape"), (#""\ud800""#, 7, "high surrogate"), (#""\udc00""#, 7, "low surrogate"),
        ("[1] 2", 4, "unexpected data"), ("NaN", 0, "expected a value"), ("tru", 0, "expected a value"),
        ("{1: 2}", 1, "expected a string key"), ("1e999", 0, "out of range"),
    ])
    func rejectsInvalidTextSayingWhere(text: String, offset: Int, problem: String) {
        #expect {
            try JSONValue(parsing: Data(text.utf8))
        } throws: { error in
            guard let syntax = error as? JSONSyntaxError else { return false }
            return syntax.offset == offset && syntax.problem.contains(problem)
        }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Data([0x22, 0xC3, 0x28, 0x22])) }
    }

    @Test func nestingIsCapped() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect {
            try JSONValue(parsing: Data(deep.utf8))
        } throws: { error in
            (error as? JSONSyntaxError)?.description == "not valid JSON at line 1, byte 256: nested more than 256 deep"
        }
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect((try? JSONValue(parsing: Data(fine.utf8))) != nil)
    }

    @Test func serialisedTextParsesBackToTheSameValue() throws {
        let value: JSONValue = .object([
            "text": .string("quote \" slash \\ newline \n tab \t bell \u{07} é 😀"), "whole": .number(4550),
            "fraction": .number(45.5), "tiny": .number(1e-7), "big": .number(1e20), "flag": .bool(true),
            "nothing": .null, "list": .array([.number(-1), .string("")]),
        ])
        #expect(try JSONValue(parsing: value.data()) == value)
        #expect(JSONValue.object(["b": .number(1), "a": .array([])]).text == #"{"a":[],"b":1}"#)
        #expect(JSONValue.string("\u{07}").text == #""\u0007""#)
        // DEL and C1 controls (a one-character CSI) are escaped too, and read back as themselves.
        #expect(
            JSONValue.string("a\u{7F}\u{80}\u{9B}31m\u{9F}\u{A0}").text == #""a\u007f\u0080\u009b31m\u009f\#u{A0}""#)
        #expect(try JSONValue(parsing: Data(#""\u009b""#.utf8)) == .string("\u{9B}"))
        #expect(JSONValue.number(.infinity).text == "null")
    }

    /// Whatever SafeText keeps off a terminal (controls, separators, invisible bidirectional controls such as a
    /// right-to-left override) is escaped in JSON, in text this library writes and in text another encoder wrote,
    /// and reads back as itself.
    @Test func whatATerminalMustNotSeeRawIsEscaped() throws {
        let unsafe = (0...0xFFFF).compactMap(Unicode.Scalar.init).filter(SafeText.isUnsafe)
        #expect(unsafe.contains("\u{202E}") && unsafe.contains("\u{2066}") && unsafe.contains("\u{200F}"))
        for scalar in unsafe {
            let value = JSONValue.string("a" + String(scalar) + "b")
            #expect(!value.text.unicodeScalars.contains(where: SafeText.isUnsafe), "U+\(scalar.value)")
            #expect(try JSONValue(parsing: value.data()) == value)
            let other = try JSONEncoder().encode(["k": "a" + String(scalar) + "b"])
            let escaped = JSONValue.escapingControls(other)
            #expect(!escaped.unicodeScalars.contains(where: SafeText.isUnsafe), "U+\(scalar.value): \(escaped)")
            #expect(try JSONValue(parsing: Data(escaped.utf8)) == .object(["k": value]))
        }
        #expect(JSONValue.string("x\u{202E}y").text == #""x\u202ey""#)
        #expect(JSONValue.escapingControls(Data("{\"a\":\"x\u{202E}y\u{200F}\"}".utf8)) == #"{"a":"x\u202ey\u200f"}"#)
        #expect(JSONValue.escapingControls(Data("{\n\t\"a\": \"é\"\n}".utf8)) == "{\n\t\"a\": \"é\"\n}")
    }

    @Test func anotherEncodersTextGetsItsControlsEscaped() throws {
        // Foundation's encoder leaves DEL and C1 raw; escaped, the text reads back the same and holds none.
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = [
            "a", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}", "\u{A0}", "\u{C2}", "é", "\u{1B}", "\"", "😀",
        ]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
            }
            let encoded = try JSONEncoder().encode(["name": text, "n": "1"])
            let escaped = JSONValue.escapingControls(encoded)
            #expect(try JSONValue(parsing: Data(escaped.utf8)) == .object(["name": .string(text), "n": .string("1")]))
            #expect(!escaped.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "\(escaped)")
        }
        #expect(
            JSONValue.escapingControls(Data(#"{"a":"x\#u{9B}y\#u{7F}\#u{A9}"}"#.utf8))
                == #"{"a":"x\u009by\u007f\#u{A9}"}"#)
    }
}

@Suite struct RawSliceTests {
    @Test func slicesAreTheBytesAsSentEvenWhereADoubleWouldRound() throws {
        let text =
            #"{"components": ["order", {"id": "eta", "payload": {"n": 9007199254740993, "d": 0.1000000000000000055511}}]}"#
        let (value, slices) = try JSONValue.parse(Data(text.utf8)) { $0.count == 3 && $0[2] == "payload" }
        #expect(slices.keys.map { $0 } == [["components", "1", "payload"]])
        #expect(
            String(decoding: slices[["components", "1", "payload"]] ?? Data(), as: UTF8.self)
                == #"{"n": 9007199254740993, "d": 0.1000000000000000055511}"#)
        guard case .object(let root) = value, case .array(let items)? = root["components"] else {
            Issue.record("expected the parsed layout, got \(value)")
            return
        }
        #expect(items.count == 2)
    }

    @Test func aSyntaxErrorStillNamesItsByte() {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONValue.parse(Data(#"{"a": [}"#.utf8)) { _ in true }
        }
        #expect(error?.description == "not valid JSON at line 1, byte 7: expected a value")
    }
}

@Suite struct JSONSequenceTests {
    @Test func concatenatedPagesParseAsASequence() throws {
        let pages = try JSONValue.sequence(parsing: Data("[1, 2]\n[3][]  {\"a\": true}".utf8))
        #expect(
            pages == [.array([.number(1), .number(2)]), .array([.number(3)]), .array([]), .object(["a": .bool(true)])])
        #expect(try JSONValue.sequence(parsing: Data(" \n".utf8)).isEmpty)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.sequence(parsing: Data("[1] [".utf8)) }
    }
}

/// A repeated key would mean one thing here and another to a parser that keeps the last value: refused with the
/// key and its line, except inside a slice another decoder owns.
@Suite struct RepeatedKeyTests {
    @Test func aRepeatedKeyIsRefusedWithTheKeyAndItsLine() {
        let text = "{\n  \"@courier/payments\": [\"paula\"],\n  \"@courier/payments\": [\"mallory\"]\n}"
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Data(text.utf8)) }
        #expect(
            error?.description
                == #"not valid JSON at line 3, byte 38: the key "@courier/payments" is repeated in one object; keep one"#
        )
        #expect(throws: JSONSyntaxError.self) {
            try JSONValue.sequence(parsing: Data(#"[{"a":1,"b":{"c":1,"c":2}}]"#.utf8))
        }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Data(#"{"\u0061":1,"a":2}"#.utf8)) }
    }

    @Test func theSameKeyInSeparateObjectsIsFine() throws {
        let value = try JSONValue(parsing: Data(#"[{"a":1},{"a":2},{"b":{"a":3},"a":4}]"#.utf8))
        #expect(value.text == #"[{"a":1},{"a":2},{"a":4,"b":{"a":3}}]"#)
    }

    @Test func aKeptSliceKeepsItsDecodersRule() throws {
        let data = Data(#"{"components":[{"id":"eta","payload":{"m":1,"m":2}}]}"#.utf8)
        let (_, slices) = try JSONValue.parse(data) { $0.count == 3 && $0[2] == "payload" }
        #expect(slices[["components", "0", "payload"]] == Data(#"{"m":1,"m":2}"#.utf8))
        #expect(throws: JSONSyntaxError.self) {
            try JSONValue.parse(Data(#"{"components":[],"components":["x"]}"#.utf8)) { $0.count == 3 }
        }
    }

    @Test func aHugeRepeatedKeyIsNamedShort() {
        let key = String(repeating: "k", count: 10_000)
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONValue(parsing: Data("{\"\(key)\":1,\"\(key)\":2}".utf8))
        }
        #expect((error?.description.count ?? .max) < 200)
    }
}
