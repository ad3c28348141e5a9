import Foundation

/// Why bytes are not JSON, and where: "line 3, byte 17: expected ':' after an object key".
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offset of the first byte that does not fit the grammar.
    public let offset: Int
    /// The line of that byte (1 for the first), so a person can find it in a file they wrote.
    public let line: Int
    /// What was expected there.
    public let problem: String

    /// The position and the problem, for a card's failure reason.
    public var description: String { "not valid JSON at line \(line), byte \(offset): \(problem)" }
}

extension JSONValue {
    /// Parses JSON text (RFC 8259, UTF-8) into a value whose shape is not known in advance (layouts, reports);
    /// every error names the line and byte offset, and nesting is capped so hostile input cannot exhaust the
    /// stack. A key repeated in one object is refused: files people write and answers a gate reads must not
    /// mean one thing to this parser and another to a different one (RFC 8259 leaves the choice open).
    public init(parsing data: Data) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: Array(data))
        self = try parser.document()
    }

    /// Parses a sequence of JSON values with only whitespace between them, as `gh api --paginate` prints one
    /// array per page; an empty input is an empty sequence.
    public static func sequence(parsing data: Data) throws(JSONSyntaxError) -> [JSONValue] {
        var parser = JSONParser(bytes: Array(data))
        return try parser.sequence()
    }

    /// Parses like ``init(parsing:)`` and also returns the exact bytes of every value whose path `wanted`
    /// accepts (paths are keys and array indices: `["components", "2", "payload"]`), so a host can hand a
    /// slice on without printing it again: big integers and long decimals arrive as they were sent. A kept slice
    /// belongs to whoever decodes it (a component's `JSONDecoder`), so its repeated keys are left to that decoder.
    public static func parse(
        _ data: Data, keepingBytesWhere wanted: ([String]) -> Bool
    ) throws(JSONSyntaxError) -> (value: JSONValue, slices: [[String]: Data]) {
        let bytes = Array(data)
        var slices: [[String]: Data] = [:]
        let result = withoutActuallyEscaping(wanted) { wanted in
            var parser = JSONParser(bytes: bytes)
            parser.isOpaque = wanted
            parser.onValue = { path, range in
                if wanted(path) { slices[path] = Data(bytes[range]) }
            }
            return Result { () throws(JSONSyntaxError) in try parser.document() }
        }
        return (try result.get(), slices)
    }
}

/// Recursive descent over UTF-8 bytes; nesting is capped so hostile input cannot exhaust the stack.
struct JSONParser {
    static let maximumDepth = 256

    let bytes: [UInt8]
    var index = 0
    var depth = 0
    /// Called with each value's path and byte range when set; the path is tracked only then.
    var onValue: (([String], Range<Int>) -> Void)?
    /// Values handed on whole to another decoder: repeated keys inside them are that decoder's business.
    var isOpaque: (([String]) -> Bool)?
    private var opaqueDepth = 0
    private var path: [String] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is tolerated, as JSONDecoder does.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func sequence() throws(JSONSyntaxError) -> [JSONValue] {
        var values: [JSONValue] = []
        skipWhitespace()
        while index < bytes.count {
            values.append(try value())
            skipWhitespace()
        }
        return values
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let value = try self.value()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the value") }
        return value
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard let onValue else { return try bareValue() }
        let start = index
        let opaque = isOpaque?(path) == true
        if opaque { opaqueDepth += 1 }
        defer { if opaque { opaqueDepth -= 1 } }
        let value = try bareValue()
        onValue(path, start..<index)
        return value
    }

    private mutating func member(_ name: String) throws(JSONSyntaxError) -> JSONValue {
        guard onValue != nil else { return try value() }
        path.append(name)
        defer { path.removeLast() }
        return try value()
    }

    private mutating func bareValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { (parser) throws(JSONSyntaxError) in try parser.object() }
        case UInt8(ascii: "["): return try nested { (parser) throws(JSONSyntaxError) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("expected a value")
        }
    }

    private mutating func nested(
        _ body: (inout JSONParser) throws(JSONSyntaxError) -> JSONValue
    ) throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        guard depth <= JSONParser.maximumDepth else { throw fail("nested more than \(JSONParser.maximumDepth) deep") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(fields) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyStart = index
            let key = try string()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw fail("expected ':' after an object key") }
            let parsed = try member(key)
            if fields[key] == nil {
                fields[key] = parsed
            } else if opaqueDepth == 0 {
                throw fail("the key \"\(Self.shown(key))\" is repeated in one object; keep one", at: keyStart)
            }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw fail("expected ',' or '}' in an object") }
        return .object(fields)
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(items) }
        repeat {
            items.append(try member(String(items.count)))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw fail("expected ',' or ']' in an array") }
        return .array(items)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &utf8)
            case 0..<0x20:
                throw fail("control character in a string (escape it)")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw fail("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                    throw fail("high surrogate without its low half")
                }
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("high surrogate without its low half") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw fail("low surrogate without its high half")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            index -= 1
            throw fail("unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if digits() > 0 { throw fail("leading zero in a number", at: start) }
        } else if digits() == 0 {
            throw fail("expected a digit")
        }
        if consume(UInt8(ascii: ".")), digits() == 0 { throw fail("expected a digit after '.'") }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            if digits() == 0 { throw fail("expected a digit in the exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            throw fail("number out of range", at: start)
        }
        return number
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        guard bytes[index...].starts(with: word.utf8) else { throw fail("expected a value") }
        index += word.utf8.count
        return value
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func fail(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = offset ?? index
        let line = 1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return JSONSyntaxError(offset: offset, line: line, problem: problem)
    }

    /// A key as an error names it: at most 64 characters, so a hostile megabyte key stays one short line.
    private static func shown(_ key: String) -> String {
        key.count <= 64 ? key : String(key.prefix(64)) + "…"
    }
}
