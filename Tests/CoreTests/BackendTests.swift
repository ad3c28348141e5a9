import Core
import CoreTesting
import Foundation
import Testing

@Suite struct EndpointTests {
    @Test(arguments: ["..", ".", "", ".hidden", "a/b", "a\\b", "x\u{0}y", String(repeating: "x", count: 129)])
    func unsafeSegmentsAreRejected(segment: String) {
        #expect(throws: BackendError.self) { try Endpoint("orders", segment, "payment.json") }
    }

    @Test func safeSegmentsJoinIntoAPath() throws {
        #expect(try Endpoint("orders", "12 34", "payment.json").path == "orders/12 34/payment.json")
    }
}

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
        let delayed = Task { [backend] in try await backend.fetch(endpoint) }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .milliseconds(1499))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let body = try await delayed.value
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
