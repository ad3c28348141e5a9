import Core
import Foundation
import ScreenRuntime
import Testing

/// The layout format: ids in order, payload slices kept byte for byte, and errors that say what is wrong.
@Suite struct LayoutTests {
    @Test func idsAndPayloadSlicesInOrder() throws {
        let text = #"{"components": ["order", {"id": "eta", "payload": {"min":  35, "big": 12345678901234567890}}]}"#
        let entries = try ScreenEntry.layout(from: Data(text.utf8), defaultOrder: [])
        #expect(entries.map(\.id) == ["order", "eta"])
        #expect(entries[0].payload == nil)
        let slice = try #require(entries[1].payload)
        #expect(String(decoding: slice, as: UTF8.self) == #"{"min":  35, "big": 12345678901234567890}"#)
    }

    @Test func noListMeansTheDefaultOrder() throws {
        #expect(try ScreenEntry.layout(from: Data("{}".utf8), defaultOrder: ["a", "b"]).map(\.id) == ["a", "b"])
    }

    @Test(arguments: [
        ("[]", "screen.json must be a JSON object"),
        (#"{"components": 3}"#, "screen.json: 'components' must be a list"),
        (#"{"components": [{"payload": {}}]}"#, "screen.json: components[0] has no string 'id'"),
        (#"{"components": ["a", 7]}"#, #"screen.json: components[1] must be an id or {"id": …}"#),
    ])
    func aBadLayoutSaysWhatIsWrong(text: String, reason: String) {
        #expect(throws: Failure(reason)) { try ScreenEntry.layout(from: Data(text.utf8), defaultOrder: []) }
    }
}
