/// The byte strings a CODEOWNERS file's index is keyed by, numbered 0, 1, 2… and found again from a borrowed
/// path segment without allocating: a `Dictionary` keyed by bytes costs a SipHash, an allocation for the key and
/// reference counting on every segment of every path.
///
/// A name of 1 to 7 bytes (most folder names, every extension) is packed with its length into one word, which is
/// its own key: one multiply finds its slot and one comparison of words settles it, with no byte compared. A
/// longer name takes a short seeded hash over its bytes and one byte comparison. The multiplier and the seed are
/// random per process, so a file cannot be written to make every name collide.
struct ByteNames: Sendable {
    private var storage: [UInt8] = []
    private var ranges: [Range<Int>] = []
    /// Names of 8 bytes or more, by hash slot: 0 when empty, else the name's number + 1 in the low half and its
    /// hash's top half above, so a probe compares bytes only when the hashes agree. A power of two long, at
    /// most half full.
    private var slots = [UInt64](repeating: 0, count: 16)
    private var filter = KeyFilter()
    private let seed: UInt64
    /// Names of 1 to 7 bytes, by slot: the packed word (0 when empty) and the name's number. At most a quarter
    /// full, so most probes end at their first slot: a deep path's segments are mostly short, and each probe that
    /// goes on is a branch the processor mispredicts (deep paths 0.46 → 0.41 µs against half full).
    private var shortKeys = [UInt64](repeating: 0, count: 16)
    private var shortNumbers = [Int32](repeating: -1, count: 16)
    private var shortShift: UInt64 = 60
    private var shortCount = 0
    /// Four bits a slot (sixteen a name), one set for each short name by a second hash: most segments of a deep
    /// path are no name, and these bits (a kilobyte for 500 names) stay in the processor's nearest cache while a
    /// table of thousands of slots (read a path at a time, between the paths' own bytes) does not.
    private var shortFilter = [UInt64](repeating: 0, count: 1)
    private let multiplier: UInt64
    private let filterMultiplier: UInt64

    init(seed: UInt64 = .random(in: .min ... .max)) {
        self.seed = seed
        multiplier = (seed &* 0x9E37_79B9_7F4A_7C15) | 1
        filterMultiplier = (seed &* 0xC2B2_AE3D_27D4_EB4F ^ 0x1656_67B1_9E37_79F9) | 1
    }

    /// How many names there are; they are numbered `0..<count`.
    var count: Int { ranges.count }

    /// The number of `name`, added if it is new.
    mutating func number(_ name: [UInt8]) -> Int {
        if let found = name.withUnsafeBufferPointer({ find($0) }) { return found }
        let number = ranges.count
        ranges.append(storage.count..<(storage.count + name.count))
        storage += name
        if let key = name.withUnsafeBufferPointer(ByteNames.packed) {
            shortCount += 1
            if shortCount * 4 > shortKeys.count { growShort() } else { placeShort(key, number) }
            return number
        }
        filter.insert(count: name.count, first: name.first ?? 0)
        if (ranges.count - shortCount) * 2 > slots.count { grow() } else { place(number) }
        return number
    }

    /// The number of the name spelled exactly `bytes`, or nil.
    @inline(__always)
    func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if let key = ByteNames.packed(bytes) { return findShort(key) }
        guard filter.mayContain(count: bytes.count, first: bytes.first ?? 0) else { return nil }
        return find(bytes, hash: hash(bytes))
    }

    /// The number of the path segment `bytes`, or nil, and the offset of its last "." (-1: none), found in
    /// the same pass over its bytes as its key.
    /// `readable`: how many bytes may be read from the segment's start (its path's rest); with eight, a short
    /// segment is read as one word, masked, and its last "." found in that word without a loop.
    @inline(__always)
    func findSegment(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> (number: Int?, lastDot: Int) {
        let count = bytes.count
        if UInt(bitPattern: count &- 1) < 7, readable >= 8, let base = bytes.baseAddress {
            let loaded = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
            let word = loaded & ((1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1)
            // The top bit of each byte that is ".", exact (no borrow between bytes); the bytes past the segment
            // are zero after the mask, so none of them counts.
            let other = word ^ 0x2E2E_2E2E_2E2E_2E2E
            let dots = ~(((other & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | other | 0x7F7F_7F7F_7F7F_7F7F)
            let dot = dots == 0 ? -1 : (63 &- dots.leadingZeroBitCount) >> 3
            return (findShort(word | UInt64(truncatingIfNeeded: count) << 56), dot)
        }
        if UInt(bitPattern: count &- 1) < 7 {
            var word = UInt64(truncatingIfNeeded: count) << 56
            var dot = -1
            var index = 0
            while index < count {
                let byte = bytes[index]
                word |= UInt64(byte) << UInt64(truncatingIfNeeded: index &* 8)
                dot = byte == PathBytes.dot ? index : dot
                index &+= 1
            }
            return (findShort(word), dot)
        }
        guard filter.mayContain(count: count, first: bytes.first ?? 0) else {
            return (nil, bytes.lastIndex(of: PathBytes.dot) ?? -1)
        }
        var hash = seed ^ 0xcbf2_9ce4_8422_2325
        var dot = -1
        var index = 0
        while index < count {
            let byte = bytes[index]
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            dot = byte == PathBytes.dot ? index : dot
            index &+= 1
        }
        return (find(bytes, hash: hash ^ (hash >> 29)), dot)
    }

    /// 1 to 7 bytes as one word, the length in its top byte (so "a" and "a\0" differ); nil for other lengths.
    @inline(__always)
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard UInt(bitPattern: bytes.count &- 1) < 7 else { return nil }
        var word = UInt64(truncatingIfNeeded: bytes.count) << 56
        for index in 0..<bytes.count { word |= UInt64(bytes[index]) << UInt64(index &* 8) }
        return word
    }

    @inline(__always)
    private func findShort(_ key: UInt64) -> Int? {
        let bit = (key &* filterMultiplier) >> (shortShift &- 2)
        guard shortFilter.withUnsafeBufferPointer({ $0[Int(truncatingIfNeeded: bit >> 6)] >> (bit & 63) & 1 }) != 0
        else { return nil }
        return shortKeys.withUnsafeBufferPointer { keys in
            let mask = keys.count &- 1
            var slot = Int(truncatingIfNeeded: (key &* multiplier) >> shortShift)
            while true {
                let stored = keys[slot]
                if stored == key { return Int(shortNumbers[slot]) }
                if stored == 0 { return nil }
                slot = (slot &+ 1) & mask
            }
        }
    }

    private mutating func placeShort(_ key: UInt64, _ number: Int) {
        let mask = shortKeys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* multiplier) >> shortShift)
        while shortKeys[slot] != 0 { slot = (slot + 1) & mask }
        shortKeys[slot] = key
        shortNumbers[slot] = Int32(number)
        let bit = (key &* filterMultiplier) >> (shortShift - 2)
        shortFilter[Int(bit >> 6)] |= 1 << (bit & 63)
    }

    private mutating func growShort() {
        shortKeys = [UInt64](repeating: 0, count: shortKeys.count * 2)
        shortNumbers = [Int32](repeating: -1, count: shortKeys.count)
        shortFilter = [UInt64](repeating: 0, count: shortKeys.count / 16)
        shortShift -= 1
        for number in ranges.indices {
            let range = ranges[number]
            let key = storage.withUnsafeBufferPointer { ByteNames.packed(UnsafeBufferPointer(rebasing: $0[range])) }
            if let key { placeShort(key, number) }
        }
    }

    @inline(__always)
    private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        let tag = hash & 0xFFFF_FFFF_0000_0000
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let entry = slots[slot]
                if entry == 0 { return nil }
                if entry & 0xFFFF_FFFF_0000_0000 == tag {
                    let number = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
                    if equal(number, bytes) { return number }
                }
                slot = (slot &+ 1) & mask
            }
        }
    }

    private func equal(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = ranges[number]
        return storage.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[range]).same(as: bytes) }
    }

    /// FNV-1a over the bytes, started from the seed.
    @inline(__always)
    private func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = seed ^ 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash ^ (hash >> 29)
    }

    private mutating func place(_ number: Int) {
        let mask = slots.count - 1
        let range = ranges[number]
        let hash = storage.withUnsafeBufferPointer { stored -> UInt64 in
            self.hash(UnsafeBufferPointer(rebasing: stored[range]))
        }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(number + 1)
    }

    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        for number in ranges.indices where !(1...7).contains(ranges[number].count) { place(number) }
    }
}

/// Whole numbers to whole numbers in one open-addressed table, for keys packed from small parts (a tree node
/// and a name number; a depth and a name number): a multiply and a shift find the slot, with no `Hasher`.
struct NumberTable: Sendable {
    private var keys = [UInt64](repeating: 0, count: 16)
    private var values = [Int32](repeating: -1, count: 16)
    private var shift: UInt64 = 60
    private(set) var count = 0

    /// The value stored for `key`, or nil.
    @inline(__always)
    subscript(key: UInt64) -> Int? {
        let mask = keys.count &- 1
        var slot = NumberTable.slot(key, shift)
        while true {
            let value = values[slot]
            if value < 0 { return nil }
            if keys[slot] == key { return Int(value) }
            slot = (slot &+ 1) & mask
        }
    }

    /// Stores `value` (≥ 0) for `key`.
    mutating func set(_ key: UInt64, _ value: Int) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = NumberTable.slot(key, shift)
        while values[slot] >= 0 && keys[slot] != key { slot = (slot + 1) & mask }
        if values[slot] < 0 { count += 1 }
        keys[slot] = key
        values[slot] = Int32(value)
    }

    private static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func grow() {
        let old = zip(keys, values).filter { $0.1 >= 0 }
        keys = [UInt64](repeating: 0, count: keys.count * 2)
        values = [Int32](repeating: -1, count: keys.count)
        shift -= 1
        count = 0
        for (key, value) in old { set(key, Int(value)) }
    }
}

/// A set of byte strings told apart by length and first byte: `mayContain` is false for most strings that are
/// no key, in a few instructions, so a segment is hashed only when it may be a name.
struct KeyFilter: Sendable {
    private var lengths: UInt64 = 0
    private var firstBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(count: Int, first: UInt8) {
        lengths |= 1 << UInt64(min(count, 63))
        let bit = UInt64(1) << UInt64(first & 63)
        switch first >> 6 {
        case 0: firstBytes.0 |= bit
        case 1: firstBytes.1 |= bit
        case 2: firstBytes.2 |= bit
        default: firstBytes.3 |= bit
        }
    }

    /// Selects the first byte's word with conditional moves, not a branch a varied path would mispredict.
    @inline(__always)
    func mayContain(count: Int, first: UInt8) -> Bool {
        let quarter = first >> 6
        let low = quarter & 1 == 0 ? firstBytes.0 : firstBytes.1
        let high = quarter & 1 == 0 ? firstBytes.2 : firstBytes.3
        let word = quarter & 2 == 0 ? low : high
        return (lengths >> UInt64(min(count, 63))) & (word >> UInt64(first & 63)) & 1 != 0
    }
}
