import Foundation

@testable import ComponentWorkers

/// Pieces of the shell scripts that play a worker for the host's side (`/bin/sh -c SCRIPT` as the pool's command):
/// the frames they write and the greeting every worker starts with.
enum ShellWorker {
    /// The build a pool whose command is `/bin/sh` expects its workers to greet with.
    static let build = BuildIdentity.of(file: "/bin/sh")

    /// A `printf` writing `message` as one frame to the host (descriptor 3).
    static func write(_ message: FromWorker) -> String {
        let frame = WorkerFrames.frame(message) ?? Data()
        return "printf '\(frame.map { String(format: "\\%03o", $0) }.joined())' >&3; "
    }

    /// A worker's first words: its greeting with `build` (the host's own unless told), then the host's greeting read
    /// to its end, so that what it reads next is the host's first call.
    static func greeting(as build: String = build) -> String {
        let theirs = WorkerFrames.frame(ToWorker.hello(build: Self.build))?.count ?? 0
        return write(.hello(build: build)) + "head -c \(theirs) <&3 > /dev/null; "
    }

    /// Reads the next call's header: the host has sent it (and waits for its reply) once this returns.
    static let awaitCall = "head -c 4 <&3 > /dev/null; "
}
