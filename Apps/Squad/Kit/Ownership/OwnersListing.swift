import CodeOwnership
import Foundation
import JSON

/// `squad owners`' answer for many paths, as text lines or one JSON array. `git ls-files | squad owners -` on
/// a big repository hands over a hundred thousand paths or a million: they are answered in rounds of one slice
/// per core, each slice looked up and printed alone into bytes, and each round is written before the next
/// starts, so the answers never sit in memory whole (a million deep paths: 364 MB at most before, when the
/// whole answer was joined first) and a reader that goes away (`| head -1`) stops the work.
struct OwnersListing: Sendable {
    let owners: CodeOwners
    let json: Bool

    /// How many paths a slice holds (the last round's slices up to twice as many); a round of fewer is done on
    /// one thread (starting threads would cost more than it saves).
    static let pathsPerSlice = 16_384

    /// The most paths a round holds: a slice for each core squad uses (at most eight).
    static var pathsPerRound: Int { max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) * pathsPerSlice }

    /// Writes every answer to `out`, a round at a time, and stops early once `stopped` says stdout is gone.
    func write(_ paths: OwnersQuery.Paths, to out: (String) -> Void, stopped: () -> Bool = { false }) {
        let count = paths.entries.count
        let perRound = OwnersListing.pathsPerRound
        var from = 0
        repeat {
            let end = min(count, from + perRound)
            let slices = max(1, (end - from) / OwnersListing.pathsPerSlice)
            let bounds = (0...slices).map { from + (end - from) * $0 / slices }
            let parts = Parts(count: slices)
            DispatchQueue.concurrentPerform(iterations: slices) { slice in
                parts.set(slice, render(paths, bounds[slice]..<bounds[slice + 1], first: bounds[slice] == 0))
            }
            out(text(parts.all, opening: from == 0, closing: end == count))
            from = end
        } while from < count && !stopped()
    }

    /// One round's slices as one text, with the JSON array's bracket when the round opens or closes it.
    private func text(_ parts: [[UInt8]], opening: Bool, closing: Bool) -> String {
        let total = parts.reduce(json ? 3 : 0) { $0 + $1.count }
        return String(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            func append(_ bytes: some Collection<UInt8>) {
                offset = buffer[offset...].initialize(fromContentsOf: bytes)
            }
            if json && opening { append("[".utf8) }
            for part in parts { append(part) }
            if json && closing { append("]\n".utf8) }
            return offset
        }
    }

    /// The lines (or JSON objects, comma-separated after the first) for `paths[range]`.
    private func render(_ paths: OwnersQuery.Paths, _ range: Range<Int>, first: Bool) -> [UInt8] {
        // Each rule's owners are rendered once: a hundred thousand paths share a few hundred answers.
        var rendered: [[UInt8]?] = []
        func answer(_ ownership: CodeOwners.Ownership, into bytes: inout [UInt8]) {
            let key = ownership.line ?? 0
            if key < rendered.count, let text = rendered[key] {
                bytes += text
                return
            }
            let text =
                json
                ? "{\"line\":\(ownership.line.map(String.init) ?? "null"),\"owners\":"
                    + JSONValue.array(ownership.owners.map(JSONValue.string)).text + ",\"path\":"
                : ownership.owners.isEmpty ? "-" : ownership.owners.joined(separator: " ")
            while rendered.count <= key { rendered.append(nil) }
            rendered[key] = Array(text.utf8)
            bytes += text.utf8
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count * (json ? 160 : 100))
        var first = first
        paths.forEach(in: range) { path, plain in
            let ownership = owners.ownership(ofBytes: path)
            if json {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                answer(ownership, into: &bytes)
                // Most paths need no escaping: copied as they are, without building a JSON value each.
                if plain {
                    bytes.append(UInt8(ascii: "\""))
                    bytes.append(contentsOf: path)
                    bytes.append(UInt8(ascii: "\""))
                } else if let text = String(validating: path, as: UTF8.self) {
                    bytes += JSONValue.string(text).text.utf8
                } else {
                    // JSON holds only Unicode: a name that is not UTF-8 gets U+FFFD for its stray bytes, as every
                    // JSON encoder gives it, and also the exact name as git quotes it (`git ls-files` prints that).
                    var quoted: [UInt8] = []
                    PathBytes.appendQuoted(path, to: &quoted)
                    bytes += JSONValue.string(String(decoding: path, as: UTF8.self)).text.utf8
                    bytes += ",\"quotedPath\":".utf8
                    bytes += JSONValue.string(String(decoding: quoted, as: UTF8.self)).text.utf8
                }
                bytes.append(UInt8(ascii: "}"))
            } else {
                if plain { bytes.append(contentsOf: path) } else { PathBytes.appendQuoted(path, to: &bytes) }
                bytes.append(UInt8(ascii: "\t"))
                answer(ownership, into: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
        }
        return bytes
    }

    /// The slices' bytes, each written by its own thread once.
    private final class Parts: @unchecked Sendable {
        private var parts: [[UInt8]]
        private let lock = NSLock()

        init(count: Int) { parts = Array(repeating: [], count: count) }

        func set(_ index: Int, _ bytes: [UInt8]) {
            lock.lock()
            defer { lock.unlock() }
            parts[index] = bytes
        }

        var all: [[UInt8]] {
            lock.lock()
            defer { lock.unlock() }
            return parts
        }
    }
}
