/// Git paths as git holds them: bytes. Splitting, prefixes, equality and display all work on UTF-8 code units,
/// because a Swift `Character` can swallow a "/" (a combining mark after it joins the grapheme) and `String`
/// equality and hashing treat NFC and NFD twins, two different files to git, as one.
public enum PathBytes {
    /// The path's segments: split on "/" bytes, with empty and "." segments dropped ("./a//b" is "a/b").
    public static func segments<Bytes: Collection<UInt8>>(_ path: Bytes) -> [ArraySlice<UInt8>] {
        let bytes = Array(path)
        var segments: [ArraySlice<UInt8>] = []
        segments.reserveCapacity(8)
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == slash {
            let length = index - start
            if length > 0 && !(length == 1 && bytes[start] == dot) { segments.append(bytes[start..<index]) }
            start = index + 1
        }
        return segments
    }

    /// The path with empty and "." segments dropped, as a string.
    public static func normalize(_ path: String) -> String {
        String(decoding: Array(segments(path.utf8).joined(separator: [slash])), as: UTF8.self)
    }

    /// Whether `path` starts with `prefix`, byte for byte.
    public static func hasPrefix(_ path: String, _ prefix: String) -> Bool { path.utf8.starts(with: prefix.utf8) }

    /// Whether two paths are the same file to git (same bytes; canonical equivalence does not count).
    public static func same(_ one: String, _ other: String) -> Bool { one.utf8.elementsEqual(other.utf8) }

    /// The key to deduplicate paths by: their bytes.
    public static func key(_ path: String) -> [UInt8] { Array(path.utf8) }

    /// `path` as git prints it with `core.quotePath` on: as is when it is plain printable ASCII without `"` or
    /// `\`, otherwise in double quotes with C escapes and every other byte in octal, so a name holding a tab,
    /// a newline, an escape sequence or a look-alike letter can neither fake a line nor pass for another file.
    public static func quoted(_ path: String) -> String {
        var bytes: [UInt8] = []
        var path = path
        path.withUTF8 { appendQuoted($0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `path` quoted as ``quoted(_:)`` does, from its bytes (a listing of many paths builds one buffer).
    public static func appendQuoted(_ path: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        guard path.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x5C }) else {
            text.append(contentsOf: path)
            return
        }
        text.append(0x22)
        for byte in path {
            switch byte {
            case 0x07: text += "\\a".utf8
            case 0x08: text += "\\b".utf8
            case 0x09: text += "\\t".utf8
            case 0x0A: text += "\\n".utf8
            case 0x0B: text += "\\v".utf8
            case 0x0C: text += "\\f".utf8
            case 0x0D: text += "\\r".utf8
            case 0x22: text += "\\\"".utf8
            case 0x5C: text += "\\\\".utf8
            case 0x20..<0x7F: text.append(byte)
            default:
                text.append(0x5C)
                text.append(0x30 + (byte >> 6))
                text.append(0x30 + ((byte >> 3) & 7))
                text.append(0x30 + (byte & 7))
            }
        }
        text.append(0x22)
    }

    /// The path a line of git's output names when it starts with `"`: `git ls-files` and `git diff --name-only`
    /// print every name with a byte outside printable ASCII that way (`"caf\303\251.md"`), and read as it is
    /// such a line is a different file. Nil when the line is badly quoted (git's own readers refuse those too),
    /// runs on after its closing quote, or would hold a NUL, which no path can.
    public static func unquoted(_ line: some Collection<UInt8>) -> [UInt8]? {
        var bytes = line.makeIterator()
        guard bytes.next() == 0x22 else { return nil }
        var path: [UInt8] = []
        path.reserveCapacity(line.count)
        while let byte = bytes.next() {
            switch byte {
            case 0x22: return bytes.next() == nil && !path.contains(0) ? path : nil
            case 0x5C: break
            default:
                path.append(byte)
                continue
            }
            guard let escape = bytes.next() else { return nil }
            switch escape {
            case UInt8(ascii: "a"): path.append(0x07)
            case UInt8(ascii: "b"): path.append(0x08)
            case UInt8(ascii: "t"): path.append(0x09)
            case UInt8(ascii: "n"): path.append(0x0A)
            case UInt8(ascii: "v"): path.append(0x0B)
            case UInt8(ascii: "f"): path.append(0x0C)
            case UInt8(ascii: "r"): path.append(0x0D)
            case 0x22, 0x5C: path.append(escape)
            // Three octal digits, the first 0–3 so the value fits a byte.
            case UInt8(ascii: "0")...UInt8(ascii: "3"):
                guard let second = bytes.next(), let third = bytes.next(),
                    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(second),
                    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(third)
                else { return nil }
                path.append((escape - 0x30) << 6 | (second - 0x30) << 3 | (third - 0x30))
            default: return nil
            }
        }
        return nil
    }

    /// How many bytes the UTF-8 scalar starting at `index` takes (1 for a stray or truncated byte).
    static func scalarLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : 1
        guard index + length <= bytes.count else { return 1 }
        for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return 1 }
        return length
    }

    static let slash = UInt8(ascii: "/")
    static let dot = UInt8(ascii: ".")
}
