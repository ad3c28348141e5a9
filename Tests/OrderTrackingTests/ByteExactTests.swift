import Core
import CoreTesting
import FixtureBackend
import Foundation
import Payments
import ScreenRuntime
import Testing

/// What the backend sent is what the component decodes: an amount past 2^53 (where a Double rounds
/// 9007199254740993 to …992) arrives whole from the embedded backend, over HTTP, and in an inline layout slice,
/// and leaves again whole in `--format json`.
@Suite struct ByteExactTests {
    static let big = 9_007_199_254_740_993
    static let payment = """
        {"method": {"type": "cash"}, "amount": {"minor": \(big), "currency": "SAR"}, "status": "paid",
         "refundable": false, "logo": "cash.png"}
        """

    func tree() throws -> TemporaryDirectory {
        let tree = try TemporaryDirectory()
        try tree.write(Self.payment, to: "orders/1/payment.json")
        try tree.write(#"{"components": ["payment"]}"#, to: "orders/1/screen.json")
        try tree.write(#"{"components": [{"id": "payment", "payload": \#(Self.payment)}]}"#, to: "orders/2/screen.json")
        return tree
    }

    @Test func fromTheEmbeddedBackend() async throws {
        let tree = try tree()
        var registry = ComponentRegistry()
        try registry.register(PaymentsModule.registration)
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: "payment")], registry: registry,
            backend: FileBackend(root: tree.url, clock: SystemClock()),
            clock: SystemClock(), settings: ScreenSettings(ids: ["order": "1"]),
            report: RuntimeReport(diagnostic: { _ in }))
        await runtime.open(loading: [0])
        let info = runtime.currentFrame().cards.first?.info
        _ = await runtime.stop()
        #expect(info.map { String(decoding: $0, as: UTF8.self) }?.contains(#""minor":\#(Self.big)"#) == true)
    }

    @Test(arguments: ["1", "2"])
    func overHTTPAndFromAnInlineSliceAndOutAgainAsJSON(order: String) async throws {
        let tree = try tree()
        let server = try TestServer.faults(root: tree.url)
        defer { server.stop() }
        let run = try await CLI.run([order, "--api", server.baseURL.absoluteString, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""minor":\#(Self.big)"#), "\(run.stdout)")
        let text = try await CLI.run([order, "--api", server.baseURL.absoluteString, "--plain"]).stdout
        #expect(text.contains("SAR 90,071,992,547,409.93"))
    }
}
