import Core
import CoreTesting
import Foundation
import Testing

/// A component small enough to read at a glance: fetches `greetings/<user>.json` and shows the name.
private struct Hello: Component {
    struct Info: Sendable, Equatable, Codable { let name: String }
    static let id: ComponentID = "hello"

    func load(_ context: ComponentContext) async throws -> Info {
        let data = try await context.payloadOrFetch(try Endpoint("greetings", try context.id("user") + ".json"))
        return try JSONDecoder().decode(Info.self, from: data)
    }

    func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: .skeleton(title: "Hello", lines: 1)
        case .info(let info): Block(title: "Hello", rows: [Row("Hi, \(info.name)")])
        case .failed: nil
        }
    }
}

@Suite struct HarnessTests {
    let answers: [String: CannedAnswer] = ["greetings/1.json": .json(#"{"name": "Ada"}"#)]

    @Test func recordsPhasesBlocksEventsAndRequests() async {
        let harness = ComponentHarness(Hello(), ids: ["user": "1"], answers: answers)
        await harness.load()
        #expect(harness.phases == [.loading, .info])
        #expect(harness.blocks.count == 2 && harness.blocks.first??.isSkeleton == true)
        #expect(harness.events.isEmpty)
        #expect(harness.backend.requests == ["greetings/1.json"])
        #expect(harness.card(width: 20) == "╭─ Hello ──────────╮\n│ Hi, Ada          │\n╰──────────────────╯")
    }

    @Test func aDelayedAnswerArrivesOnVirtualTimeBeforeTheDeadline() async {
        let harness = ComponentHarness(
            Hello(), ids: ["user": "1"], answers: ["greetings/1.json": .delayed(.seconds(3), #"{"name": "Bo"}"#)],
            timeout: .seconds(4))
        await harness.load()
        #expect(harness.container.current.info?.name == "Bo")
    }

    @Test func aHangingEndpointFailsAtTheDeadline() async {
        let harness = ComponentHarness(
            Hello(), ids: ["user": "1"], answers: ["greetings/1.json": .hang], timeout: .seconds(2))
        await harness.load()
        #expect(harness.expectHidden(because: "no answer within 2s") == nil)
    }

    @Test func aWrongExpectationIsReportedAtTheCallersLine() async {
        let harness = ComponentHarness(Hello(), ids: ["user": "1"], answers: answers)
        await harness.load()
        let line = #_sourceLocation.line + 2
        withKnownIssue {
            harness.expectPhases([.loading, .failed])
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileID.hasSuffix("HarnessTests.swift") == true
        }
    }

    @Test func everyMismatchSaysWhatWasExpectedAndWhatHappened() async {
        let harness = ComponentHarness(Hello(), ids: ["user": "1"], answers: answers)
        await harness.load()
        withKnownIssue {
            let phases = harness.expectPhases([.loading, .failed])
            #expect(phases == HarnessMismatch(what: "phases", expected: "loading, failed", actual: "loading, info"))
            #expect(harness.expectCard("nope")?.description.contains("Hi, Ada") == true)
            #expect(harness.expectEvents([.finished]) != nil)
            #expect(harness.expectHidden(because: "anything") != nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("mismatch") }
        }
        #expect(harness.expectPhases([.loading, .info]) == nil)
    }

    @Test func temporaryDirectoriesAreRemovedWhenReleased() throws {
        var path = ""
        do {
            let directory = try TemporaryDirectory()
            try directory.write("x", to: "a/b.txt")
            path = directory.url.path
            #expect(FileManager.default.fileExists(atPath: path + "/a/b.txt"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
