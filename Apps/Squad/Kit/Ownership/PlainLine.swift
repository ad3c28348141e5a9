/// What a line of `squad owners -` is when it needs no resolving: relative, no ".", ".." or empty segment, and
/// printable ASCII other than `"` and `\` (so it is printed as it is, in text and in JSON). Nil otherwise.
///
/// `git ls-files | squad owners -` hands over a hundred thousand lines, and a byte-at-a-time check with four
/// conditions was an eighth of a deep listing's processor time: eight bytes are checked at once in a word, and
/// the segment rules only where a "/" is followed by "/" or ".". (Swift's `SIMD16` compares lane by lane here,
/// four times slower than the byte loop.)
enum PlainLine: Equatable {
    /// Its last segment has a dot, as file names listed by git mostly do (`x.swift`, `.gitignore`).
    case file
    /// Its last segment has none: a file, unless a folder of that name is on disk.
    case dotless

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty, bytes[0] != PlainLine.slash,
            bytes[bytes.count - 1] != PlainLine.slash
        else { return nil }
        let count = bytes.count
        // A leading "." or ".." segment; later ones follow a "/", which the checks below look at.
        if bytes[0] == PlainLine.dot {
            let second = count > 1 ? bytes[1] : PlainLine.slash
            if second == PlainLine.slash || second == PlainLine.dot && (count == 2 || bytes[2] == PlainLine.slash) {
                return nil
            }
        }
        if count >= 9 {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while true {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let next = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self))
                if PlainLine.hasOddByte(word) { return nil }
                let slashes = PlainLine.zeroBytes(word ^ PlainLine.repeated(PlainLine.slash))
                let slashOrDot =
                    PlainLine.zeroBytes(next ^ PlainLine.repeated(PlainLine.slash))
                    | PlainLine.zeroBytes(next ^ PlainLine.repeated(PlainLine.dot))
                if slashes & slashOrDot != 0, !PlainLine.segmentsArePlain(bytes, from: offset, to: offset + 8) {
                    return nil
                }
                if offset + 9 == count { break }
                // The last word overlaps the one before: every byte is looked at, none past the line.
                offset = min(offset + 8, count - 9)
            }
            let last = bytes[count - 1]
            if last < 0x20 || last > 0x7E || last == PlainLine.quote || last == PlainLine.backslash { return nil }
        } else {
            for byte in bytes where byte < 0x20 || byte > 0x7E || byte == PlainLine.quote || byte == PlainLine.backslash
            {
                return nil
            }
            if !PlainLine.segmentsArePlain(bytes, from: 0, to: count) { return nil }
        }
        self = .dotless
        for byte in bytes.reversed() where byte == PlainLine.dot || byte == PlainLine.slash {
            if byte == PlainLine.dot { self = .file }
            break
        }
    }

    /// Whether no "/" in `start..<end` begins an empty, "." or ".." segment.
    private static func segmentsArePlain(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        for index in start..<end where bytes[index] == slash {
            // The line does not end in "/", so a byte follows every "/".
            let next = bytes[index + 1]
            if next == slash { return false }
            guard next == dot else { continue }
            let after = index + 2 < bytes.count ? bytes[index + 2] : slash
            if after == slash { return false }
            if after == dot && (index + 3 == bytes.count || bytes[index + 3] == slash) { return false }
        }
        return true
    }

    /// 0x80 in each byte of `word` that is zero, 0 in every other (exact, unlike the shorter test for "any").
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low) &+ low) | word | low)
    }

    /// Whether a byte of `word` is below 0x20, above 0x7E, `"` or `\`.
    private static func hasOddByte(_ word: UInt64) -> Bool {
        let control = (word &- repeated(0x20)) & ~word & repeated(0x80)
        let high = word & repeated(0x80)
        let odd =
            zeroBytes(word ^ repeated(0x7F)) | zeroBytes(word ^ repeated(quote)) | zeroBytes(word ^ repeated(backslash))
        return control | high | odd != 0
    }

    private static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
}
