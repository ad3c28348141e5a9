import ArgumentParsing
import Core
import FixtureBackend
import Foundation
import HostIO
import ScreenRuntime

/// `--record FILE` and `--replay FILE`: FixtureBackend's recording and replay backends with the file handling
/// and the messages that say what to do. The record is a sink like the others (every backend answer, one JSON
/// line each); the replay is the backend.
public struct RecordingFiles: Sendable {
    /// `--record FILE`, if given.
    public let record: String?
    /// `--replay FILE`, if given.
    public let replay: String?

    /// The largest recording replayed: bodies are kept decoded in memory for the run.
    public static let largestReplay = 256 << 20

    /// Files for `--record` and `--replay` (at most one of them is given).
    public init(record: String?, replay: String?) { (self.record, self.replay) = (record, replay) }

    /// The backend the run talks to: the replay, or the one `live` builds (only when there is no replay),
    /// writing to the record or not. A file that cannot be read or written is a usage error naming it; a line
    /// that later cannot be written is said once on `terminal`'s stderr.
    public func backend(
        clock: any CourierClock, terminal: Terminal, live: () throws(UsageError) -> any Backend
    ) throws(UsageError) -> any Backend {
        guard record == nil || replay == nil else {
            throw UsageError(message: "--record and --replay cannot be used together; record first, then replay")
        }
        if let replay {
            // Mapped, not read: a large recording costs its decoded bodies, not two more copies of its text.
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: replay), options: .mappedIfSafe) else {
                throw UsageError(message: "--replay '\(replay)' cannot be read; give a file written by --record")
            }
            guard data.count <= RecordingFiles.largestReplay else {
                throw UsageError(message: "--replay '\(replay)' is larger than 256 MB; replay a shorter recording")
            }
            do { return try ReplayBackend(recording: data, clock: clock) } catch {
                throw UsageError(
                    message: "--replay '\(replay)' line \(error.line) is not a recorded answer: \(error.reason)")
            }
        }
        let backend = try live()
        guard let record else { return backend }
        let file = try JSONLinesFile(path: record, option: "--record", append: false)
        return RecordingBackend(wrapping: backend, clock: clock) { file.append($0) { terminal.err($0) } }
    }
}

/// The attempts of a `--replay`: each send is the recorded attempt, under the key the recording sent it with
/// (a request the recording does not hold gets a key no recording has, and the replay refuses it). Nothing is
/// kept anywhere: a replay sends nothing, so it settles nothing.
public struct ReplayedAttempts: AttemptLedger {
    let replay: ReplayBackend

    /// The attempts `replay` recorded.
    public init(_ replay: ReplayBackend) { self.replay = replay }

    /// The recorded key for the same request.
    public func begin(_ request: ActionRequest) throws(AttemptRefusal) -> AttemptStart {
        .send(
            key: replay.recordedKey(request.endpoint.path, body: request.body)
                ?? "unrecorded-" + UUID().uuidString.lowercased())
    }

    /// Nothing to keep.
    public func settle(_ request: ActionRequest, answer: KeptAnswer) {}

    /// Nothing to forget.
    public func abandon(_ request: ActionRequest) {}
}
