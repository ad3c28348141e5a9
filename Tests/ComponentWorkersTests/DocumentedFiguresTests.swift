import Foundation
import Testing

@testable import ComponentWorkers

/// The figures this module's README ("How workers run", where the mechanism is explained, next to its code) and the
/// project's README give, so a change to one is a change to them too (a number in a doc is checked by a test or not
/// written).
@Suite struct DocumentedFiguresTests {
    @Test func theWorkersFiguresAreTheDocumentedOnes() throws {
        #expect(WorkerCommand.memory == 512, "COURIER_WORKER_MEMORY_MB's default")
        #expect(WorkerFrames.limit == 64 << 20, "the largest frame, 64 MiB")
        #expect(WorkerLink.grace == .seconds(1), "a call asked to stop answers within a second; SIGKILL a second later")
        #expect(WorkerLink.errorTail == 16 << 10, "the last 16 KiB of a worker's standard error")
        #expect(WorkerServer.kept == 4, "the last four infos of each card")
        #expect(WorkerPool.crashLimit == 5, "not started again after five crashes within 60 s")
        #expect(WorkerPool.crashPeriod == .seconds(60), "five crashes within 60 s")
        #expect(WorkerPool.drawingFloor == .seconds(5), "a call other than a load: at least five seconds")
        #expect(
            [1, 2, 3, 4].map(WorkerPool.backOff(after:)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)],
            "the back-off: 1, 2, 4, 8 s")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let module = try String(
            contentsOf: root.appendingPathComponent("Modules/ComponentWorkers/README.md"), encoding: .utf8)
        for said in [
            "64 MiB", "within one second", "last 16 KiB", "last four of each card", "(default 512)",
            "1 s, then 2, 4, 8 s", "after five crashes within 60 s", "at least five seconds",
            "SIGKILL a second later",
        ] {
            #expect(module.contains(said), "Modules/ComponentWorkers/README.md no longer says '\(said)'")
        }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        for said in [
            "(default 512, ", "(1, 2, 4, 8 s)", "after five crashes within 60 s", "within a second",
            "SIGKILL a second later",
        ] {
            #expect(readme.contains(said), "README.md no longer says '\(said)'")
        }
    }

    /// The sandbox's figures: Landlock's ABI 3 is where truncation is held (WorkerProtection), and a worker costs
    /// the host two descriptors (WorkerSandboxTests counts them on the real host).
    @Test func theSandboxsFiguresAreTheDocumentedOnes() throws {
        #expect(WorkerProtection.missing(landlock: 2, seccomp: true) == [.truncation])
        #expect(WorkerProtection.missing(landlock: 3, seccomp: true).isEmpty)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let architecture = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        for doc in [readme, architecture] { #expect(doc.contains("Landlock (ABI 3 or later)")) }
        #expect(readme.contains("Each worker costs the host two descriptors"))
        #expect(WorkerLink.reserve == 8 && readme.contains("leaves the host eight descriptors"))
        let module = try String(
            contentsOf: root.appendingPathComponent("Modules/ComponentWorkers/README.md"), encoding: .utf8)
        #expect(module.contains("the host keeps the two other ends"))
        #expect(module.contains("fewer than eight free descriptors"))
    }
}
