import ComponentWorkers
import Foundation
import HostIO
import Testing

@testable import Confinement

/// What a worker may read once confined: what the executable needs, nothing of the person's.
@Suite struct ConfinementTests {
    @Test func aWorkerReadsWhatTheExecutableNeedsAndNothingOfThePersons() throws {
        let readable = SystemSandbox.readable()
        #expect(readable.contains("/proc") && readable.contains("/usr/share/zoneinfo"))
        // The executable itself, never its folder (the squads' fixture trees lie beside it).
        let executable = try #require(ExecutableLocation.path())
        #expect(readable.contains(executable))
        #expect(!readable.contains((executable as NSString).deletingLastPathComponent))
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(
            !readable.contains { $0 == home || $0 == "/" || $0 == "/tmp" || $0 == "/home" || $0.hasPrefix("/dev") })
        #if os(Linux)
            // Its libraries' folders, as mapped now: the C library's among them.
            let lines = SystemSandbox.whole("/proc/self/maps").split(separator: "\n")
            let paths = lines.compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } }
            let libc = try #require(paths.first { $0.contains("/libc.so") })
            #expect(readable.contains((libc as NSString).deletingLastPathComponent))
        #endif
    }

    @Test func whatThisSystemLacksIsWhatTheTableSaysForIt() {
        #if os(Linux)
            let missing = SystemSandbox.current.missing
            #expect(missing.allSatisfy { WorkerProtection.allCases.contains($0) })
        #else
            #expect(SystemSandbox.current.missing == WorkerProtection.allCases)
        #endif
    }
}
