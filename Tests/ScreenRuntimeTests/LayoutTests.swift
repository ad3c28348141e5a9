import Core
import CoreTesting
import Foundation
import JSON
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

    /// At most ``ScreenEntry/maximumCount`` cards, in a layout and in a definition alike: one more is refused
    /// with the count, before any entry is made.
    @Test func aListOverTheLimitIsRefused() throws {
        let ids = { (count: Int) in
            #"{"components": ["# + Array(repeating: #""a""#, count: count).joined(separator: ",") + "]}"
        }
        let most = ScreenEntry.maximumCount
        #expect(try ScreenEntry.layout(from: Data(ids(most).utf8), defaultOrder: []).count == most)
        let refusal = "'components' lists \(most + 1) cards; a screen takes at most \(most)"
        #expect(throws: Failure("screen.json: " + refusal)) {
            try ScreenEntry.layout(from: Data(ids(most + 1).utf8), defaultOrder: [])
        }
        #expect(throws: Failure("screens/big.json: " + refusal)) {
            try ScreenDefinition.parse(Data(ids(most + 1).utf8), name: "big")
        }
    }

    /// A repeated key in the layout itself is refused (another parser would keep the other list); a repeated key
    /// inside a card's payload slice is that card's decoder's business, as for any payload.
    @Test func aRepeatedKeyInTheLayoutIsRefusedButNotInsideAPayload() throws {
        let twice = Data("{\"components\": [\"order\"],\n \"components\": [\"payment\"]}".utf8)
        let error = #expect(throws: JSONSyntaxError.self) { try ScreenEntry.layout(from: twice, defaultOrder: []) }
        #expect(error?.line == 2 && error?.problem.contains(#"the key "components" is repeated"#) == true)
        let payload = Data(#"{"components": [{"id": "eta", "payload": {"min": 1, "min": 2}}]}"#.utf8)
        #expect(try ScreenEntry.layout(from: payload, defaultOrder: []).map(\.id) == ["eta"])
    }

    /// Fetching a layout: each way it can fail is its own case, so the host can say what to try.
    @Test func fetchingALayoutNamesEachWayItFails() async throws {
        let clock = VirtualClock()
        let backend = CannedBackend(
            [
                "orders/1/screen.json": .json(#"{"components": ["order"]}"#),
                "orders/2/screen.json": .fault(.httpStatus(503, path: "orders/2/screen.json")),
                "orders/3/screen.json": .json("[]"),
                "orders/4/screen.json": .hang,
            ], clock: clock)
        @Sendable func fetch(_ order: String) async -> Result<[ComponentID], LayoutFailure> {
            do {
                let entries = try await ScreenEntry.fetchLayout(
                    try! Endpoint("orders", order, "screen.json"), backend: backend, clock: clock,
                    timeout: .seconds(2), defaultOrder: [])
                return .success(entries.map(\.id))
            } catch { return .failure(error) }
        }
        #expect(await fetch("1") == .success(["order"]))
        #expect(await fetch("9") == .failure(.notFound(path: "orders/9/screen.json")))
        #expect(await fetch("2") == .failure(.unreachable(.httpStatus(503, path: "orders/2/screen.json"))))
        #expect(await fetch("3") == .failure(.unreadable(Failure("screen.json must be a JSON object"))))
        let hanging = clock.start { await fetch("4") }
        await clock.settle()
        #expect(clock.sleeperCount == 2)  // the hanging fetch and the deadline
        clock.advance(by: .seconds(2))
        #expect(await hanging.value == .failure(.noAnswer(path: "orders/4/screen.json")))
    }
}
