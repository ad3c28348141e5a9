import Core
import Foundation
import Testing

@testable import CoreTesting

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

/// The harness's own rig: what it records and how a wrong expectation reads.
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
        #expect(harness.frames.map(\.phase) == [.loading, .info, .info], "first, changed, settled")
    }

    @Test func aDelayedAnswerArrivesOnVirtualTimeBeforeTheDeadline() async {
        let harness = ComponentHarness(
            Hello(), ids: ["user": "1"], answers: ["greetings/1.json": .delayed(.seconds(3), #"{"name": "Bo"}"#)],
            timeout: .seconds(4))
        await harness.load()
        #expect(harness.info?.name == "Bo")
        #expect(harness.clock.now().timeIntervalSince(VirtualClock().now()) == 3)
    }

    @Test func aHangingEndpointFailsAtTheDeadline() async {
        let harness = ComponentHarness(
            Hello(), ids: ["user": "1"], answers: ["greetings/1.json": .hang], timeout: .seconds(2))
        await harness.load()
        #expect(harness.expectHidden(because: "no answer within 2s") == nil)
        #expect(harness.clock.now().timeIntervalSince(VirtualClock().now()) == 2, "exactly the deadline")
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

    /// Whatever the runtime says on a one-card screen (only a transition its table refused can be said there) is
    /// an issue at the line of the step that said it.
    @Test func aDiagnosticIsAnIssueAtTheStepThatSaidIt() async {
        let harness = ComponentHarness(Hello(), ids: ["user": "1"], answers: answers)
        harness.log.add(.diagnostic("hello: illegal transition 'receive' from 'failed'"))
        let line = #_sourceLocation.line + 2
        await withKnownIssue {
            await harness.load()
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.contains { $0.rawValue.contains("illegal transition") }
        }
        await harness.reload()  // said once: no second issue
        #expect(harness.diagnostics == ["hello: illegal transition 'receive' from 'failed'"])
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

/// A card on the one runtime, seen through the harness: the skeleton first, a failure hidden with its reason,
/// a refresh that keeps the card, a retry, events before and after info, an inline payload.
@Suite struct OneCardScreenTests {
    @Test func loadingThenInfoDrawsSkeletonThenCard() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.blocks.first??.isSkeleton == true)
        harness.expectCard(
            """
            ╭─ Greeting ─────────────╮
            │ Hello, Ada             │
            ╰────────────────────────╯
            """, width: 26)
        harness.expectEvents([])
    }

    @Test func failureHidesWithTheEndpointInTheReason() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: [:])
        await harness.load()
        harness.expectPhases([.loading, .failed])
        harness.expectHidden(because: "users/1/greeting.json: not found (404)")
        harness.expectEvents([.hide(Failure("users/1/greeting.json: not found (404)"))])
        #expect(harness.card() == "(nothing)")
        #expect(harness.frames.last?.visible == false && harness.frames.last?.reason?.contains("404") == true)
    }

    @Test func malformedPayloadNamesTheMissingKey() async throws {
        let harness = ComponentHarness(
            Greeting(), ids: ["user": "1"], answers: ["users/1/greeting.json": .json(#"{"nom": "Ada"}"#)])
        await harness.load()
        harness.expectHidden(because: "missing key 'name'")
    }

    @Test func aRefreshKeepsTheCardUntilTheNewAnswerArrives() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.load()
        await harness.reload()
        harness.expectPhases([.loading, .info, .loading, .info])
        #expect(harness.blocks.map { $0?.isSkeleton } == [true, false], "no skeleton flash on refresh")
        #expect(harness.frames.dropFirst().allSatisfy { $0.block?.isSkeleton == false })
        #expect(harness.backend.requests.count == 2)
    }

    @Test func aRetryAfterAFailureLoadsAgain() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: [:])
        await harness.load()
        await harness.reload()
        harness.expectPhases([.loading, .failed, .loading, .failed])
        harness.expectEvents([.hide(Failure("users/1/greeting.json: not found (404)"))])
        #expect(harness.backend.requests.count == 2)
    }

    @Test func eventsBeforeInfoApplyWhenInfoArrivesAndAfterwardInPlace() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.expectReaction(.ignored, to: DomainEvent("order.status", text: "delivered"))
        await harness.load()
        #expect(harness.info?.delivered == true)
        await harness.expectReaction(.updated, to: DomainEvent("order.status", text: "preparing"))
        #expect(harness.info?.delivered == false)
        harness.expectPhases([.loading, .info, .info])
    }

    @Test func anInlinePayloadIsUsedInsteadOfFetching() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], payload: Data(#"{"name":"Inline"}"#.utf8))
        await harness.load()
        #expect(harness.info?.name == "Inline")
        #expect(harness.backend.requests.isEmpty)
    }
}

/// A card that can fail, recover, ask for refreshes, finish and pass on what it hears: its output over time.
struct Parcel: Component, SelfRefreshing, Finishing, RefreshingOnEvents, EventConsuming, EventPublishing {
    struct Info: Sendable, Equatable, Codable {
        let step: String
        var heard: String?
    }
    static let id: ComponentID = "parcel"
    static let orderStatus = EventName<String>("order.status")
    static let step = EventName<String>("parcel.step")
    static let heard = EventName<String>("parcel.heard")
    static let refreshingEvents: Set<AnyEventName> = [EventName<String>("coupon.applied")]
    static let consumedEvents: Set<AnyEventName> = [orderStatus]
    static let publishedEvents: Set<AnyEventName> = [step, heard]

    func load(_ context: ComponentContext) async throws -> Info {
        try JSONDecoder().decode(Info.self, from: try await context.backend.fetch(try Endpoint("parcel.json")))
    }

    func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Parcel", rows: [Row($0.step, value: $0.heard ?? "")]) }
            ?? .skeleton(title: "Parcel")
    }

    func refreshInterval(for info: Info) -> Duration? { info.step == "moving" ? .seconds(3) : nil }
    func isFinished(_ info: Info) -> Bool { info.step == "done" }
    func consume(_ event: DomainEvent, into info: Info) -> Info {
        var info = info
        info.heard = event.payload(of: Parcel.orderStatus)
        return info
    }
    func events(for info: Info) -> [DomainEvent] {
        [Parcel.step(info.step)] + (info.heard.map { [Parcel.heard($0)] } ?? [])
    }
}

@Suite struct CardOutputTests {
    static let path = "parcel.json"
    static func harness(_ answers: [CannedAnswer]) -> ComponentHarness<Parcel> {
        ComponentHarness(Parcel(), answers: [path: .sequence(answers)])
    }

    @Test func aHiddenCardThatGetsInfoAgainIsShownAgain() async {
        let harness = Self.harness([.fault(.httpStatus(503, path: Self.path)), .json(#"{"step": "packed"}"#)])
        await harness.load()
        await harness.reload()
        harness.expectEvents([
            .hide(Failure("parcel.json: server answered HTTP 503")), .show,
            .domain(DomainEvent("parcel.step", text: "packed")),
        ])
        #expect(harness.blocks.map { $0 == nil } == [false, true, false], "skeleton, hidden, the card")
    }

    @Test func aMovingParcelAsksToBeLookedAtAgainAndADoneOneFinishesOnce() async {
        let harness = Self.harness([.json(#"{"step": "moving"}"#), .json(#"{"step": "done"}"#)])
        await harness.load()
        await harness.reload()
        await harness.reload()
        harness.expectEvents([
            .refresh(after: .seconds(3)), .domain(DomainEvent("parcel.step", text: "moving")), .finished,
            .domain(DomainEvent("parcel.step", text: "done")),
        ])
    }

    /// The harness does not watch, as `preview` does not: a refresh the card asks for is taken once it is due and
    /// the screen looks again (here, for another event), never on its own.
    @Test func aRefreshItAsksForIsTakenOnceDueWhenTheScreenLooksAgain() async {
        let harness = Self.harness([.json(#"{"step": "moving"}"#)])
        await harness.load()
        await harness.expectReaction(.ignored, to: DomainEvent("other", text: "x"))
        #expect(harness.backend.requests == [Self.path], "not due yet")
        harness.clock.advance(by: .seconds(3))
        #expect(harness.backend.requests == [Self.path], "due, but nothing looks")
        await harness.expectReaction(.refreshed, to: DomainEvent("other", text: "x"))
        #expect(harness.backend.requests == [Self.path, Self.path])
    }

    @Test func anotherCardsEventMakesItLoadAgain() async {
        let harness = Self.harness([.json(#"{"step": "packed"}"#)])
        await harness.load()
        await harness.expectReaction(.refreshed, to: DomainEvent("coupon.applied", text: "SAVE10"))
        await harness.expectReaction(.ignored, to: DomainEvent("other", text: "x"))
        #expect(harness.backend.requests == [Self.path, Self.path])
    }

    /// Every event the card publishes is seen, in order, including those it publishes after consuming another
    /// squad's event; each is said once, as the screen routes it.
    @Test func everyEventItPublishesIsSeenIncludingAfterConsumingOne() async {
        let harness = Self.harness([.json(#"{"step": "packed"}"#)])
        await harness.load()
        await harness.expectReaction(.updated, to: DomainEvent("order.status", text: "preparing"))
        await harness.expectReaction(.updated, to: DomainEvent("order.status", text: "delivered"))
        await harness.expectReaction(.ignored, to: DomainEvent("order.status", text: "delivered"))
        #expect(
            harness.published == [
                DomainEvent("parcel.step", text: "packed"), DomainEvent("parcel.heard", text: "preparing"),
                DomainEvent("parcel.heard", text: "delivered"),
            ])
        harness.expectPhases([.loading, .info, .info, .info])
    }
}
