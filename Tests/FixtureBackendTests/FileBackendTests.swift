import Core
import CoreTesting
import FixtureBackend
import Foundation
import Testing

@Suite struct FileBackendTests {
    let tree: TemporaryDirectory

    init() throws {
        tree = try TemporaryDirectory()
        try tree.write(#"{"ok":true}"#, to: "api/orders/1/payment.json")
        try tree.write(
            #"{"delivery.json": {"delay_ms": 1500}, "eta.json": {"status": 500}, "odd.json": {"body": "{"}}"#,
            to: "api/orders/1/_faults.json")
        try tree.write("{}", to: "api/orders/1/delivery.json")
        try tree.write("secret", to: "secret.txt")
    }

    var backend: FileBackend { FileBackend(root: tree.url.appendingPathComponent("api"), clock: clock) }
    let clock = VirtualClock()

    @Test func servesFilesByEndpointPath() async throws {
        let data = try await backend.fetch(try Endpoint("orders", "1", "payment.json"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
    }

    @Test func missingFilesAndDirectoriesAreNotFound() async throws {
        await #expect(throws: BackendError.notFound(path: "orders/2/payment.json")) {
            try await backend.fetch(try Endpoint("orders", "2", "payment.json"))
        }
        await #expect(throws: BackendError.notFound(path: "orders/1")) {
            try await backend.fetch(try Endpoint("orders", "1"))
        }
    }

    @Test func faultsDeclaredInTheTreeApply() async throws {
        await #expect(throws: BackendError.httpStatus(500, path: "orders/1/eta.json")) {
            try await backend.fetch(try Endpoint("orders", "1", "eta.json"))
        }
        let odd = try await backend.fetch(try Endpoint("orders", "1", "odd.json"))
        #expect(odd == Data("{".utf8))
        let endpoint = try Endpoint("orders", "1", "delivery.json")
        let delayed = clock.start { [backend] in try? await backend.fetch(endpoint) }
        await clock.settle()
        clock.advance(by: .milliseconds(1499))
        await clock.settle()
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let body = await delayed.value
        #expect(body == Data("{}".utf8))
    }

    @Test func theSidecarItselfIsNeverServed() async throws {
        await #expect(throws: BackendError.notFound(path: "orders/1/_faults.json")) {
            try await backend.fetch(try Endpoint("orders", "1", "_faults.json"))
        }
    }

    @Test func aSymlinkOutOfTheTreeIsRefused() async throws {
        try FileManager.default.createSymbolicLink(
            atPath: tree.url.appendingPathComponent("api/orders/1/leak.json").path,
            withDestinationPath: tree.url.appendingPathComponent("secret.txt").path)
        await #expect(throws: BackendError.invalidRequest("orders/1/leak.json resolves outside the served directory")) {
            try await backend.fetch(try Endpoint("orders", "1", "leak.json"))
        }
    }
}

/// A live order's timeline, driven on virtual time: no test sleeps.
@Suite struct TimelineTests {
    let tree: TemporaryDirectory
    let clock = VirtualClock()

    init() throws {
        tree = try TemporaryDirectory()
        try tree.write(#"{"v": "base"}"#, to: "api/o/x.json")
        try tree.write(#"{"v": "one"}"#, to: "api/o/_x.1.json")
        try tree.write(#"{"v": "two"}"#, to: "api/o/_x.2.json")
        try tree.write(
            #"{"x.json": [[0, "_x.1.json"], [10, {"status": 503}], [20, "_x.2.json"]], "y.json": [[5, "_x.2.json"]]}"#,
            to: "api/o/_timeline.json")
    }

    func text(_ backend: FileBackend, _ name: String) async throws -> String {
        String(decoding: try await backend.fetch(try Endpoint("o", name)), as: UTF8.self)
    }

    @Test func eachFileFollowsItsStepsFromTheFoldersFirstRequest() async throws {
        let backend = FileBackend(root: tree.url.appendingPathComponent("api"), clock: clock)
        clock.advance(by: .seconds(100))  // time before the first request does not count
        #expect(try await text(backend, "x.json") == #"{"v": "one"}"#)
        clock.advance(by: .seconds(10))
        await #expect(throws: BackendError.httpStatus(503, path: "o/x.json")) {
            try await backend.fetch(try Endpoint("o", "x.json"))
        }
        clock.advance(by: .seconds(10))
        #expect(try await text(backend, "x.json") == #"{"v": "two"}"#)
    }

    @Test func beforeAFilesFirstStepTheFileItselfAnswers() async throws {
        let backend = FileBackend(root: tree.url.appendingPathComponent("api"), clock: clock)
        await #expect(throws: BackendError.notFound(path: "o/y.json")) {
            try await backend.fetch(try Endpoint("o", "y.json"))
        }
        clock.advance(by: .seconds(5))
        #expect(try await text(backend, "y.json") == #"{"v": "two"}"#)
    }

    @Test func aBrokenTimelineSaysWhichFileIsBroken() async throws {
        try tree.write(#"{"x.json": [[0, "../../etc/passwd"]]}"#, to: "api/o/_timeline.json")
        let backend = FileBackend(root: tree.url.appendingPathComponent("api"), clock: clock)
        let error = await #expect(throws: BackendError.self) { try await backend.fetch(try Endpoint("o", "x.json")) }
        #expect(error?.description.contains("_timeline.json beside it is not valid") == true)
    }

    @Test func theShippedLiveOrderGoesFromPreparingToDeliveredWithAPaymentOutage() async throws {
        // The host's tree holds the timeline; Order's, Location's and Payments' trees the files it names.
        let repository = TestServer.repositoryRoot
        let squads = try FileManager.default.contentsOfDirectory(
            atPath: repository.appendingPathComponent("Modules").path
        )
        .sorted().map { repository.appendingPathComponent("Modules/\($0)/Fixtures").path }
        .filter { FileManager.default.fileExists(atPath: $0) }
        #expect(squads.count >= 3)
        let host = repository.appendingPathComponent("Apps/OrderTracking/Kit/Fixtures/api").path
        let backend = FileBackend(rootPaths: [host] + squads, clock: clock)
        func status() async throws -> String {
            let data = try await backend.fetch(try Endpoint("orders", "4242", "details.json"))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["status"] as? String ?? "?"
        }
        func paymentWorks() async -> Bool {
            (try? await backend.fetch(try Endpoint("orders", "4242", "payment.json"))) != nil
        }
        var seen: [String] = []
        var outage = false
        for _ in 0..<65 {
            let current = try await status()
            if seen.last != current { seen.append(current) }
            if !(await paymentWorks()) { outage = true }
            clock.advance(by: .seconds(1))
        }
        #expect(seen == ["preparing", "on_the_way", "delivered"])
        #expect(outage, "the payment endpoint fails for a while in the middle")
        #expect(await paymentWorks())
    }
}

@Suite struct PinnedClockTests {
    /// The pinned clock reads the pinned instant plus the time run since it was made, so it moves exactly as the
    /// machine's monotonic clock does: each reading lies between two readings of that clock taken around it. A
    /// bracket, not a bound, so it holds however slowly the machine runs.
    @Test func startsAtThePinnedTimeAndRunsOnFromThere() async throws {
        let pinned = Date(timeIntervalSince1970: 1_800_000_000)
        let made = ContinuousClock.now
        let clock = PinnedClock(pinned: pinned)
        let afterMaking = ContinuousClock.now
        func since(_ instant: ContinuousClock.Instant) -> Double { (ContinuousClock.now - instant).seconds }
        for pause in [Duration.zero, .milliseconds(20)] {
            try await Task.sleep(for: pause)
            let least = since(afterMaking)
            let read = clock.now().timeIntervalSince(pinned)
            let most = since(made)
            // Date keeps about a microsecond at this distance from 1970.
            #expect(read >= least - 1e-5 && read <= most + 1e-5, "\(least) ≤ \(read) ≤ \(most)")
        }
    }
}

/// The host's tree and each squad's own, laid over each other: a path comes from the one tree that gives it, a
/// folder's declarations (the host's) apply to a squad's files, and a path two trees give is refused by name.
@Suite struct OverlaidTreesTests {
    let tree: TemporaryDirectory
    let clock = VirtualClock()

    init() throws {
        tree = try TemporaryDirectory()
        try tree.write(#"{"eta.json": {"status": 503}}"#, to: "host/orders/1/_faults.json")
        try tree.write(#"{"details.json": [[10, "_details.done.json"]]}"#, to: "host/orders/1/_timeline.json")
        try tree.write(#"{"layout": 1}"#, to: "host/orders/1/screen.json")
        try tree.write(#"{"status": "preparing"}"#, to: "order/orders/1/details.json")
        try tree.write(#"{"status": "delivered"}"#, to: "order/orders/1/_details.done.json")
        try tree.write(#"{"minutes": 5}"#, to: "location/orders/1/eta.json")
        try tree.write(#"{"paid": true}"#, to: "payments/carts/C1/_pay.post.json")
    }

    var backend: FileBackend {
        FileBackend(
            rootPaths: ["host", "order", "location", "payments"].map { tree.url.path + "/" + $0 }, clock: clock)
    }

    func text(_ backend: FileBackend, _ segments: String...) async throws -> String {
        String(decoding: try await backend.fetch(try Endpoint(segments: segments)), as: UTF8.self)
    }

    @Test func eachPathComesFromTheTreeThatGivesItUnderTheHostsDeclarations() async throws {
        let backend = backend
        #expect(try await text(backend, "orders", "1", "screen.json") == #"{"layout": 1}"#)
        #expect(try await text(backend, "orders", "1", "details.json") == #"{"status": "preparing"}"#)
        await #expect(throws: BackendError.httpStatus(503, path: "orders/1/eta.json"), "the host's _faults.json") {
            try await backend.fetch(try Endpoint("orders", "1", "eta.json"))
        }
        clock.advance(by: .seconds(10))
        #expect(try await text(backend, "orders", "1", "details.json") == #"{"status": "delivered"}"#)
        let paid = try await backend.send(try Endpoint("carts", "C1", "pay"), body: Data(), headers: [:])
        #expect(String(decoding: paid, as: UTF8.self) == #"{"paid": true}"#)
    }

    @Test func aSquadsTreeDeclaresNoFaultForAnotherSquadsAnswer() async throws {
        try tree.write(#"{"status": "preparing"}"#, to: "order/orders/2/details.json")
        try tree.write(#"{"details.json": {"status": 500}}"#, to: "location/orders/2/_faults.json")
        let backend = backend
        let error = await #expect(throws: BackendError.self) {
            try await backend.fetch(try Endpoint("orders", "2", "details.json"))
        }
        let real = tree.url.resolvingSymlinksInPath().path
        #expect(
            error
                == .invalidRequest(
                    "fixture orders/2/_faults.json is in \(real)/location; faults and timelines are declared in the "
                        + "first tree only, \(real)/host"))
    }

    @Test func aPathTwoTreesGiveIsRefusedNamingBoth() async throws {
        try tree.write(#"{"status": "shadow"}"#, to: "payments/orders/1/details.json")
        let backend = backend
        let error = await #expect(throws: BackendError.self) {
            try await backend.fetch(try Endpoint("orders", "1", "details.json"))
        }
        let real = tree.url.resolvingSymlinksInPath().path
        let (order, payments) = (real + "/order", real + "/payments")
        #expect(
            error
                == .invalidRequest(
                    "fixture orders/1/details.json is in two trees, \(order) and \(payments); keep it in the one "
                        + "whose squad owns it"))
        #expect(try await text(backend, "orders", "1", "screen.json") == #"{"layout": 1}"#, "other paths still answer")
    }
}
