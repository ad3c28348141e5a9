import Core
import Foundation
import Testing

@Suite struct JSONParserTests {
    static let valid = [
        #"{"a": 1, "b": [true, false, null], "c": {"d": "e"}}"#, "[]", "{}", "0", "-0", "-12.5e+3", "1E2", "0.001",
        #""\u00e9\ud83d\ude00 \" \\ \/ \b\f\n\r\t""#, "  [ 1 ,2 ]\n", #"{"dup": 1, "dup": 2}"#, #""héllo wörld""#,
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
            (error as? JSONSyntaxError)?.description == "not valid JSON at byte 256: nested more than 256 deep"
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
        #expect(JSONValue.number(.infinity).text == "null")
    }
}

@Suite struct JSONFieldsTests {
    let fields = try! JSONFields(
        parsing: Data(
            #"{"name": "Ada", "age": 36, "ratio": 0.5, "ok": true, "gone": null, "inner": {"n": "x"},"#
                .appending(#" "items": [{"q": 1}, {"q": "two"}], "list": 3}"#).utf8))

    @Test func typedFieldsAndTheirAbsence() throws {
        #expect(try fields.string("name") == "Ada")
        #expect(try fields.int("age") == 36)
        #expect(try fields.bool("ok"))
        #expect(try fields.stringIfPresent("gone") == nil)
        #expect(try fields.intIfPresent("missing") == nil)
        #expect(try fields.object("inner").string("n") == "x")
        #expect(try fields.objectIfPresent("gone") == nil)
        #expect(fields.keys == ["age", "gone", "inner", "items", "list", "name", "ok", "ratio"])
    }

    @Test func errorsNameTheKeyAndItsPath() throws {
        #expect(throws: PayloadError("missing key 'nope'")) { try fields.string("nope") }
        #expect(throws: PayloadError("expected Int at ratio")) { try fields.int("ratio") }
        #expect(throws: PayloadError("expected String at age")) { try fields.string("age") }
        #expect(throws: PayloadError("expected Bool at gone")) { try fields.bool("gone") }
        #expect(throws: PayloadError("missing key 'm' at inner")) { try fields.object("inner").string("m") }
        #expect(throws: PayloadError("expected Array at list")) { try fields.objects("list") }
        let items = try fields.objects("items")
        #expect(try items[0].int("q") == 1)
        #expect(throws: PayloadError("expected Int at items.[1].q")) { try items[1].int("q") }
        #expect(fields.invalid("age", "too old") == PayloadError("too old at age"))
        #expect(throws: PayloadError("expected an object at inner.n")) {
            try JSONFields(.string("x"), path: ["inner", "n"])
        }
        #expect(throws: PayloadError.self) { try JSONFields(parsing: Data("[1]".utf8)) }
        #expect(throws: PayloadError("not valid JSON at byte 1: expected a string key")) {
            try JSONFields(parsing: Data("{".utf8))
        }
    }
}
