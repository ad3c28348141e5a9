import Core
import Foundation
import Testing

/// A payload of the wrong shape is described in JSON's words, never with a Swift type name.
@Suite struct FailureWordingTests {
    struct Card: Decodable {
        enum Kind: String, Decodable { case visa, mada }
        let title: String
        let count: Int
        let kind: Kind
        let tags: [String]
    }

    func reason(_ json: String) -> String {
        do {
            _ = try JSONDecoder().decode(Card.self, from: Data(json.utf8))
            return "decoded"
        } catch { return Failure(describing: error).reason }
    }

    @Test(arguments: [
        ("null", "unexpected payload: the payload must be an object"),
        ("[]", "unexpected payload: the payload must be an object"),
        (
            #"{"title": 1, "count": 1, "kind": "visa", "tags": []}"#,
            "unexpected payload: the value must be a string at title"
        ),
        (
            #"{"title": "a", "count": "1", "kind": "visa", "tags": []}"#,
            "unexpected payload: the value must be a number at count"
        ),
        (
            #"{"title": "a", "count": null, "kind": "visa", "tags": []}"#,
            "unexpected payload: the value must be a number at count"
        ),
        (
            #"{"title": "a", "count": 1, "kind": "amex", "tags": []}"#,
            "unexpected payload: a value this card does not know at kind"
        ),
        (
            #"{"title": "a", "count": 1, "kind": "visa", "tags": {}}"#,
            "unexpected payload: the value must be a list at tags"
        ),
    ])
    func wrongShapesAreSaidInJSONWords(json: String, expected: String) {
        let said = reason(json)
        #expect(said == expected)
        for typeName in ["Dictionary", "Array<", "String", "Int", "Kind", "Card", "Swift."] {
            #expect(!said.contains(typeName), "a Swift type name reached a person: \(said)")
        }
    }
}
