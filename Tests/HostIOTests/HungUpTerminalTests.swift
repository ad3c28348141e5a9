import Foundation
import Testing

@testable import HostIO

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A terminal that hung up (its window closed: the pseudo-terminal's other end is gone) fails every write with
/// EIO. That is a hang-up, ending the run as SIGHUP does (129), never "free some space".
@Suite struct HungUpTerminalTests {
    @Test func aWriteToATerminalWhoseOtherEndIsGoneIsAHangUp() throws {
        let (master, slave) = try Self.pseudoTerminal()
        defer { close(slave) }
        #expect(StandardStreams.write(slave, "before\n", terminal: true) == nil)
        close(master)
        // A process another test starts at that moment may hold a copy of the master until it runs its program:
        // the hang-up comes once the last copy is gone.
        var result = StandardStreams.write(slave, "after\n", terminal: true)
        for _ in 0..<500 where result == nil {
            usleep(10_000)
            result = StandardStreams.write(slave, "after\n", terminal: true)
        }
        #expect(result == .hungUp)
        #expect(StandardStreams.write(slave, "after\n", terminal: false) != .hungUp, "EIO on a file is a disk's error")
    }

    /// A pseudo-terminal's two ends: the master (the terminal's side) and the slave (the program's).
    static func pseudoTerminal() throws -> (master: Int32, slave: Int32) {
        #if os(Linux)
            // posix_openpt and friends are not in Glibc's Swift module: /dev/ptmx, unlocked and numbered by ioctl.
            let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
            try #require(master >= 0)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
            let name = "/dev/pts/\(number)"
        #else
            let master = posix_openpt(O_RDWR | O_NOCTTY)
            _ = fcntl(master, F_SETFD, FD_CLOEXEC)
            try #require(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0)
            let name = try #require(ptsname(master).map { String(cString: $0) })
        #endif
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0)
        return (master, slave)
    }
}
