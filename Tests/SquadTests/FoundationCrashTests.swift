import CoreTesting
import Foundation
import Testing

/// `Scripts/foundation-crash` excuses exactly one crash (Linux Foundation's Process.run over-read, which CI then
/// runs once more) and never a crash of ours or a failing test.
@Suite struct FoundationCrashTests {
    static let foundation = """
        *** Program crashed: Bad pointer dereference at 0x00007f0fa4024000 ***
        Thread 36 "oot.default-qos" crashed:

          0               0x00007f0fe37c38b3 __memcpy_avx512_unaligned_erms + 179 in libc.so.6
          1 [ra]          0x00007f0fe475c81d Process.run() + 6428 in libFoundation.so
          2 [ra]          0x00005641d7ce8488 Shell.runBytes(_:_:environment:) + 3095 in CourierPackageTests.xctest
        """
    static let ours = """
        *** Program crashed: Bad pointer dereference at 0x0000000000000010 ***
        Thread 3 crashed:

          0               0x00005641d7ce8488 ScreenRuntime.run(_:) + 95 in CourierPackageTests.xctest
          1 [ra]          0x00007f0fe475c81d Process.run() + 6428 in libFoundation.so
          2 [ra]          0x00007f0fe475c81d Process.run() + 6428 in libFoundation.so
          3 [ra]          0x00007f0fe475c81d Process.run() + 6428 in libFoundation.so
          4 [ra]          0x00007f0fe475c81d Process.run() + 6428 in libFoundation.so
        """

    static let cases: [(log: String, status: Int32)] = [
        (foundation, 0), (ours, 1), ("✘ Test aFailingTest() recorded an issue\n", 1),
        ("*** Program crashed: Aborted ***\nThread 1 crashed:\n  0 0x1 Process.run() + 1 in libFoundation.so\n", 1),
    ]

    @Test(arguments: cases)
    func onlyFoundationsProcessRunCrashIsExcused(log: String, status: Int32) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("test.log")
        try Data(log.utf8).write(to: file)
        let script = TestServer.repositoryRoot.appendingPathComponent("Scripts/foundation-crash").path
        let run = try await ProcessRunner.run("bash", [script, file.path])
        #expect(run.status == status, "\(run.stderr)")
    }
}
