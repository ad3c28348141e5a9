/// A path's bytes and where each of its segments starts and ends, borrowed for one lookup: a hundred thousand
/// paths through `squad owners` would otherwise cost two allocations and a reference count per segment each,
/// more than the matching itself. Valid only inside `PathView.with`.
struct PathView {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Start and end offsets, two per segment.
    private let bounds: UnsafeMutableBufferPointer<Int>
    /// How many segments the path has (empty and "." segments dropped, as ``PathBytes/segments(_:)`` does).
    let count: Int
    /// Per segment, the number an index gave its whole name and then (from `count` on) its extension, -1 for
    /// none: written while the index gathers buckets, so its patterns compare literal segments as numbers.
    let numbers: UnsafeMutableBufferPointer<Int32>

    /// How many of the path's bytes may be read from the start of segment `index` on.
    func readable(_ index: Int) -> Int { bytes.count &- bounds[2 &* index] }

    /// The bytes of segment `index`.
    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[bounds[2 &* index]..<bounds[2 &* index &+ 1]])
    }

    /// Splits `bytes` on "/" into a buffer on the stack (the heap only for paths over 64 segments deep) and
    /// calls `body`.
    @inline(__always)
    static func with<Result>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (PathView) -> Result) -> Result {
        let shallow = withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * 64) { bounds -> Result? in
            guard let count = split(bytes, into: bounds) else { return nil }
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 &* count) { numbers in
                body(PathView(bytes: bytes, bounds: bounds, count: count, numbers: numbers))
            }
        }
        if let shallow { return shallow }
        var slashes = 0
        for byte in bytes where byte == PathBytes.slash { slashes &+= 1 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 &* (slashes &+ 1)) { bounds in
            let count = split(bytes, into: bounds)!
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 &* count) { numbers in
                body(PathView(bytes: bytes, bounds: bounds, count: count, numbers: numbers))
            }
        }
    }

    /// Writes each segment's bounds into `bounds` and returns how many there are, or nil when they do not fit.
    /// Eight bytes at a time: a path is mostly bytes that are no "/", and a word with none is one test.
    @inline(__always)
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, into bounds: UnsafeMutableBufferPointer<Int>)
        -> Int?
    {
        var count = 0
        var start = 0
        /// Ends the segment `start..<end` at a "/" (or the path's end), dropping it when empty or ".".
        func close(_ end: Int) -> Bool {
            let length = end &- start
            if length > 0 && !(length == 1 && bytes[start] == PathBytes.dot) {
                guard 2 &* count &+ 1 < bounds.count else { return false }
                bounds[2 &* count] = start
                bounds[2 &* count &+ 1] = end
                count &+= 1
            }
            start = end &+ 1
            return true
        }
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index &+ 8 <= bytes.count {
                // The top bit of each byte that is "/": exact, with no borrow from one byte into the next.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let other = word ^ 0x2F2F_2F2F_2F2F_2F2F
                var slashes =
                    ~(((other & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | other | 0x7F7F_7F7F_7F7F_7F7F)
                while slashes != 0 {
                    guard close(index &+ slashes.trailingZeroBitCount >> 3) else { return nil }
                    slashes &= slashes &- 1
                }
                index &+= 8
            }
        }
        while index < bytes.count {
            if bytes[index] == PathBytes.slash, !close(index) { return nil }
            index &+= 1
        }
        guard close(bytes.count) else { return nil }
        return count
    }

    /// The same for a string's UTF-8 bytes, read in place when the string is stored contiguously.
    @inline(__always)
    static func with<Result>(_ path: String, _ body: (PathView) -> Result) -> Result {
        var path = path
        return path.withUTF8 { with($0, body) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `other`.
    func same(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        var index = 0
        while index < count {
            if self[index] != other[index] { return false }
            index &+= 1
        }
        return true
    }
}
