import Core
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What the host tells a worker: run a call of a card's code, stop one, or here is what a fetch brought.
enum ToWorker: Codable, Sendable {
    /// The first frame: the host's build (``BuildIdentity``); a worker of another build ends without serving.
    case hello(build: String)
    /// Run `op` for card `slot` (described by `spec` the first time this worker hears of it) at the host's `now`.
    case call(id: Int, slot: Int, spec: SlotSpec?, now: Date, op: WorkerOp)
    /// Stop call `id` (its deadline passed, or the screen no longer needs it); it answers when it has stopped.
    case cancel(id: Int)
    /// The answer to the worker's fetch `id`.
    case fetched(id: Int, FetchResult)
}

/// What a worker tells the host: a call's reply, or a fetch it needs (the host fetches: faults, recording and
/// replay stay in one process).
enum FromWorker: Codable, Sendable {
    /// The first frame, sent before the worker reads anything: its build (``BuildIdentity``), which the host
    /// compares with its own before taking any other frame.
    case hello(build: String)
    /// Call `id` is over.
    case reply(id: Int, WorkerReply)
    /// Call `call`'s code fetches `segments`; answer with ``ToWorker/fetched(id:_:)``.
    case fetch(id: Int, call: Int, segments: [String])
}

/// One card as a worker builds its context: which component, for which subject, shown how.
struct SlotSpec: Codable, Sendable, Equatable {
    var component: ComponentID
    var ids: [String: String]
    var presentation: Presentation
    var timeout: Duration
    var payload: Data?
}

/// A call of a card's code, with infos named by the tokens the worker gave them.
enum WorkerOp: Codable, Sendable {
    case load(received: [DomainEvent])
    case draw(WorkerState)
    case answer(info: Int, received: [DomainEvent], json: Bool, actions: [UserAction])
    case validate(UserAction, info: Int)
    case analytics(WorkerMoment)
    /// A squad's code outside any card (a login hook), by its id, with its argument as JSON.
    case errand(id: String, argument: Data)
}

/// ``ComponentState`` with its info as a token.
enum WorkerState: Codable, Sendable {
    case loading
    case failed(Failure)
    case info(Int)
}

/// ``Moment`` with its info as a token.
enum WorkerMoment: Codable, Sendable {
    case shown(Int)
    case hidden(Failure)
    case stale(since: Date)
    case verdict(UserAction, Verdict)
}

/// How a call ended in the worker.
enum WorkerReply: Codable, Sendable {
    /// Info the worker now holds under `token`, with its JSON.
    case info(token: Int, json: Data?)
    case block(Block?)
    case answer(WorkerAnswer)
    case verdict(Verdict?)
    case analytics([AnalyticsEvent])
    /// What an errand came to, in a line for a person.
    case said(String)
    /// The squad's code threw (a bad payload, a fault): the card's ordinary failure.
    case failed(Failure)
    /// The info named is no longer held (the worker keeps the last few of each card).
    case lost
}

/// ``CardAnswer`` with its info as a token.
struct WorkerAnswer: Codable, Sendable {
    var token: Int
    var infoJSON: Data?
    var json: Data?
    var block: Block?
    var events: [DomainEvent]
    var finished: Bool
    var refreshAfter: Duration?
    var verdicts: [UserAction: Verdict]
}

/// A fetch's outcome as the host's backend gave it.
enum FetchResult: Codable, Sendable {
    case data(Data)
    case fault(BackendError)
}

/// Frames on a pipe: a 4-byte big-endian length, then that many bytes of JSON. A length past the limit is a broken
/// peer, never an allocation.
enum WorkerFrames {
    /// The largest frame either side accepts (a card's info and its JSON fit many times over).
    static let limit = 64 << 20

    /// `message` as one frame; nil when it does not encode or is longer than `limit`.
    static func frame(_ message: some Encodable, limit: Int = limit) -> Data? {
        guard let body = try? JSONEncoder().encode(message), body.count <= limit else { return nil }
        let count = UInt32(body.count)
        var frame = Data([
            UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF),
        ])
        frame.append(body)
        return frame
    }

    /// Writes all of `data` to `descriptor`; false when the other end is gone. On a socket (`socket: true`, the
    /// host's end towards a worker) a gone reader is an error, never SIGPIPE: the host may not ignore that signal.
    static func write(_ data: Data, to descriptor: Int32, socket: Bool = false) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let rest = bytes.count - offset
                #if os(Linux)
                    let written =
                        socket
                        ? Glibc.send(descriptor, bytes.baseAddress! + offset, rest, Int32(MSG_NOSIGNAL))
                        : Foundation.write(descriptor, bytes.baseAddress! + offset, rest)
                #else
                    let written =
                        socket
                        ? Darwin.send(descriptor, bytes.baseAddress! + offset, rest, 0)
                        : Foundation.write(descriptor, bytes.baseAddress! + offset, rest)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Reads exactly `count` bytes (nil at the end of the stream or on an error).
    static func read(_ count: Int, from descriptor: Int32) -> Data? {
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { bytes -> Bool in
            var offset = 0
            while offset < count {
                let got = Foundation.read(descriptor, bytes.baseAddress! + offset, count - offset)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                offset += got
            }
            return true
        }
        return complete ? data : nil
    }

    /// The next frame's message, or nil at the end of the stream, on an error, or on a frame that does not read.
    static func next<Message: Decodable>(_ type: Message.Type, from descriptor: Int32) -> Message? {
        body(from: descriptor).flatMap { try? JSONDecoder().decode(Message.self, from: $0) }
    }

    /// The next frame's bytes, or nil at the end of the stream, on an error or past ``limit``: a greeting that does
    /// not read as one is told from no greeting at all.
    static func body(from descriptor: Int32) -> Data? {
        guard let header = read(4, from: descriptor) else { return nil }
        let count = header.reduce(0) { $0 << 8 | Int($1) }
        guard count <= limit else { return nil }
        return count == 0 ? Data() : read(count, from: descriptor)
    }
}
