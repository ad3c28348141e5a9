/// Finds every literal of a set that occurs inside a path segment in one pass over the segment's bytes
/// (Aho–Corasick, compiled to a table over byte classes): a rule keyed by a literal inside a wildcard segment
/// (`*tok*`, `*_test*`) costs the path's length to find, not one try per rule.
///
/// Anchored, it finds only the literals a segment starts with (`name_*`, `Dockerfile1*` at any depth): the walk
/// ends at the first byte no literal goes on with, most often the first, instead of reading every byte
/// through a table as large as all the literals.
struct LiteralScanner: Sendable {
    /// Whether only literals at a segment's start count.
    let anchored: Bool
    /// Byte → its class; class 0 is every byte no literal uses, which leads back to the start.
    private var classes = [UInt16](repeating: 0, count: 256)
    private var classCount = 1
    /// `step[state * classCount + class]`: the state after reading a byte of that class, with the top bit set
    /// when a literal ends there, so a byte that ends none costs one load.
    private var step: [Int32] = []
    /// The value of the literal ending at a state (-1: none), and the nearest shorter suffix with a value.
    private var value: [Int32] = []
    private var output: [Int32] = []
    /// The most values one byte can end (a literal and the literals it ends with).
    private(set) var longestChain = 0

    /// Compiles `literals` (distinct, none empty, none holding "/"), each reporting its value when found.
    init(_ literals: [(bytes: [UInt8], value: Int32)], anchored: Bool = false) {
        self.anchored = anchored
        for (bytes, _) in literals {
            for byte in bytes where classes[Int(byte)] == 0 {
                classes[Int(byte)] = UInt16(classCount)
                classCount += 1
            }
        }
        // The trie, with its edges in a dictionary while it is built.
        var edges: [Int: Int32] = [:]
        value = [-1]
        for (bytes, literalValue) in literals {
            var state = 0
            for byte in bytes {
                let key = state * classCount + Int(classes[Int(byte)])
                if let next = edges[key] {
                    state = Int(next)
                } else {
                    edges[key] = Int32(value.count)
                    state = value.count
                    value.append(-1)
                }
            }
            value[state] = literalValue
        }
        // Breadth first, so a state's fallback (its longest proper suffix in the trie) is complete before it.
        let states = value.count
        step = [Int32](repeating: 0, count: states * classCount)
        output = [Int32](repeating: -1, count: states)
        var fallback = [Int32](repeating: 0, count: states)
        var chain = [Int](repeating: 0, count: states)
        var queue: [Int] = [0]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            // Anchored, a byte no literal goes on with leads back to the start, which ends the walk.
            let back = anchored ? 0 : Int(fallback[state])
            if state != 0 {
                output[state] = value[back] >= 0 ? Int32(back) : output[back]
                chain[state] = (value[state] >= 0 ? 1 : 0) + chain[back]
                longestChain = max(longestChain, chain[state])
            }
            for byteClass in 1..<classCount {
                if let child = edges[state * classCount + byteClass] {
                    step[state * classCount + byteClass] = child
                    fallback[Int(child)] = state == 0 || anchored ? 0 : step[back * classCount + byteClass]
                    queue.append(Int(child))
                } else {
                    step[state * classCount + byteClass] =
                        state == 0 || anchored ? 0 : step[back * classCount + byteClass]
                }
            }
        }
        for (index, next) in step.enumerated() where value[Int(next)] >= 0 || output[Int(next)] > 0 {
            step[index] = next | Int32.min
        }
    }

    /// Calls `found` with the value of every literal occurrence in `segment` (a value may come more than once);
    /// anchored, of every literal `segment` starts with.
    @inline(__always)
    func scan(_ segment: UnsafeBufferPointer<UInt8>, _ found: (Int32) -> Void) {
        guard classCount > 1 else { return }
        classes.withUnsafeBufferPointer { classes in
            step.withUnsafeBufferPointer { step in
                value.withUnsafeBufferPointer { value in
                    output.withUnsafeBufferPointer { output in
                        var state = 0
                        for byte in segment {
                            let entry = step[state &* classCount &+ Int(classes[Int(byte)])]
                            state = Int(entry & Int32.max)
                            // Anchored, a walk back to the start has left every literal behind.
                            if anchored && state == 0 { return }
                            guard entry < 0 else { continue }
                            var ending = value[state] >= 0 ? state : Int(output[state])
                            while ending > 0 {
                                found(value[ending])
                                ending = Int(output[ending])
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The literals that key an index's buckets through one scanner while the index is built, kept within the
/// scanner's table budget (its states times its byte classes): past it, patterns take their other keys.
struct ScannerKeys: Sendable {
    private var buckets: [[UInt8]: Int] = [:]
    private var bytes = Set<UInt8>()
    private var length = 0
    /// The most entries a scanner's table may have (16 MB).
    static let budget = 1 << 22

    /// The bucket `literal` keys, if any.
    subscript(literal: [UInt8]) -> Int? { buckets[literal] }

    /// Whether keying by `literal` keeps the scanner's table within its budget.
    func fits(_ literal: [UInt8]) -> Bool {
        if buckets[literal] != nil { return true }
        return (length + literal.count + 1) * (bytes.union(literal).count + 1) <= ScannerKeys.budget
    }

    mutating func add(_ literal: [UInt8], bucket: Int) {
        buckets[literal] = bucket
        length += literal.count
        bytes.formUnion(literal)
    }

    /// The scanner that finds these literals and reports their buckets.
    func scanner(anchored: Bool = false) -> LiteralScanner {
        LiteralScanner(buckets.map { ($0.key, Int32($0.value)) }, anchored: anchored)
    }
}
