import Core

/// Turns the bytes a terminal sends into keys: `ESC [ D` is ←, `ESC [ Z` Shift-Tab, a UTF-8 sequence one
/// character. An Esc alone is only known once nothing follows it for a moment, so the reader calls
/// ``flush()`` after a short quiet time. Control bytes and sequences it does not know are dropped: a key that
/// means nothing is ignored. Alt+key (`ESC r`, sent in one write) is not Esc, and a terminal's replies (OSC,
/// DCS, APC, PM and SOS strings up to BEL or ST, in 7-bit or 8-bit form) are skipped whole, never read as keys.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// The text of a bracketed paste under way (`ESC [200~` … `ESC [201~`), up to ``pasteLimit`` bytes.
    private var pasted: [UInt8]?

    static let pasteStart = Array("\u{1B}[200~".utf8)
    static let pasteEnd = Array("\u{1B}[201~".utf8)
    /// The most of one paste kept: a prompt takes a few characters, and a runaway paste must not grow memory.
    static let pasteLimit = 1 << 16

    /// The terminal's reports decoded so far and not yet taken (``takeReports()``): cursor positions, mode
    /// reports and device attributes, the answers to TerminalUI's `WidthProbe` question. Never keys.
    public private(set) var reports: [[UInt8]] = []

    /// A decoder with nothing pending.
    public init() {}

    /// The reports decoded since the last call, in the order they came.
    public mutating func takeReports() -> [[UInt8]] {
        defer { reports = [] }
        return reports
    }

    /// A CSI sequence ending in R (a cursor position), y (a mode) or c (device attributes): a terminal's answer.
    private static func isReport(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let final = bytes.last, "Ryc".utf8.contains(final) else { return false }
        return bytes.starts(with: [0x1B, 0x5B]) || bytes.first == 0x9B || bytes.starts(with: [0xC2, 0x9B])
    }

    /// The keys `bytes` complete; an unfinished sequence waits for more. A bracketed paste is one
    /// ``Key/paste(_:)``, never the keys it spells: pasted text cannot press `P` and then `y`.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        while true {
            if pasted != nil {
                guard let end = pending.firstRange(of: Self.pasteEnd) else {
                    // Keep what may be the start of the end marker; the rest is pasted text.
                    let keep = min(pending.count, Self.pasteEnd.count - 1)
                    absorb(pending.dropLast(keep))
                    pending = Array(pending.suffix(keep))
                    break
                }
                absorb(pending[..<end.lowerBound])
                pending.removeFirst(end.upperBound)
                keys.append(.paste(String(decoding: pasted ?? [], as: UTF8.self)))
                pasted = nil
                continue
            }
            if pending.starts(with: Self.pasteStart) {
                pending.removeFirst(Self.pasteStart.count)
                pasted = []
                continue
            }
            guard let (key, used) = Self.decode(pending) else { break }
            if key == nil, Self.isReport(pending[..<used]) { reports.append(Array(pending[..<used])) }
            pending.removeFirst(used)
            if let key { keys.append(key) }
        }
        return keys
    }

    private mutating func absorb(_ bytes: ArraySlice<UInt8>) {
        guard let sofar = pasted else { return }
        pasted = sofar + bytes.prefix(max(Self.pasteLimit - sofar.count, 0))
    }

    /// After a quiet moment: a lone Esc is the Esc key; any other unfinished sequence is dropped.
    public mutating func flush() -> [Key] {
        // A paste under way, or the start of its marker split across reads, waits for the rest.
        guard pasted == nil, pending.count < 2 || !Self.pasteStart.starts(with: pending) else { return [] }
        defer { pending = [] }
        return pending == [0x1B] ? [.escape] : []
    }

    /// CSI or SS3 (a key, or a terminal's report such as the cursor position): parameters from `start`, then one
    /// final byte in 0x40...0x7E. The arrows, Home, End, Page Up, Page Down and Shift-Tab mean something here
    /// (with or without modifiers: `ESC [1;5A` is ↑); a report such as `ESC [12;40R` means nothing.
    private static func controlSequence(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        guard let end = bytes.dropFirst(start).firstIndex(where: { (0x40...0x7E).contains($0) }) else {
            return bytes.count > 16 ? (nil, bytes.count) : nil
        }
        let final = bytes[end]
        // The key's number before any modifier (`5;3~` is Alt+Page Up).
        let number = String(decoding: bytes[start..<end].prefix { $0 != 0x3B }, as: UTF8.self)
        let key: Key?
        switch (final, number) {
        case (0x41, _): key = .up
        case (0x42, _): key = .down
        case (0x43, _): key = .right
        case (0x44, _): key = .left
        case (0x48, _), (0x7E, "1"), (0x7E, "7"): key = .home
        case (0x46, _), (0x7E, "4"), (0x7E, "8"): key = .end
        case (0x7E, "5"): key = .pageUp
        case (0x7E, "6"): key = .pageDown
        case (0x5A, _): key = .backTab
        default: key = nil
        }
        return (key, end + 1)
    }

    /// A control string (a terminal's OSC or DCS reply) starting at `start`: skipped through its BEL or ST
    /// (`ESC \\`, 0x9C, or U+009C in UTF-8); nil while unfinished, dropped whole past 4 KB.
    private static func controlString(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x07, 0x9C: return (nil, index + 1)
            case 0x1B where index + 1 < bytes.count && bytes[index + 1] == 0x5C: return (nil, index + 2)
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x9C: return (nil, index + 2)
            default: index += 1
            }
        }
        return bytes.count > 4096 ? (nil, bytes.count) : nil
    }

    /// The first key in `bytes` (nil: bytes that mean nothing) and how many bytes it used; nil when incomplete.
    private static func decode(_ bytes: [UInt8]) -> (Key?, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B:
            guard bytes.count >= 2 else { return nil }
            switch bytes[1] {
            case 0x5B, 0x4F: break
            case 0x5D, 0x50, 0x5F, 0x5E, 0x58: return controlString(bytes, from: 2)
            case 0x1B: return (.escape, 1)
            default:
                // Alt+key: Esc and the key arrive together. Both go; an unfinished key waits for its bytes.
                guard let (_, used) = decode(Array(bytes.dropFirst())) else { return nil }
                return (nil, 1 + used)
            }
            return controlSequence(bytes, from: 2)
        case 0x9B: return controlSequence(bytes, from: 1)
        case 0xC2 where bytes.count >= 2 && bytes[1] == 0x9B: return controlSequence(bytes, from: 2)
        case 0x90, 0x9D, 0x9E, 0x9F, 0x98: return controlString(bytes, from: 1)
        case 0xC2 where bytes.count >= 2 && [0x90, 0x9D, 0x9E, 0x9F, 0x98].contains(bytes[1]):
            return controlString(bytes, from: 2)
        case 0x09: return (.tab, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0..<0x20: return (nil, 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(first))), 1)
        default:
            let length = first >= 0xF8 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            // A lead byte whose continuation bytes are not there is dropped alone: the next key survives.
            if let bad = bytes.dropFirst().prefix(length - 1).firstIndex(where: { !(0x80...0xBF).contains($0) }) {
                return (nil, bad)
            }
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes[0..<length], as: UTF8.self)
            // C1 controls (U+0080–U+009F) and broken sequences are bytes a terminal acts on, not keys.
            guard length > 1, let character = text.first, text.count == 1, character != "\u{FFFD}",
                !character.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) })
            else {
                return (nil, length)
            }
            return (.character(character), length)
        }
    }
}
