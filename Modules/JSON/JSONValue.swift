import Foundation
import SafeText

/// Any JSON value, so hosts can carry a component's raw payload slice or export its info without knowing its type.
public enum JSONValue: Sendable, Hashable, Codable {
    /// null
    case null
    /// true / false
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value back to JSON; whole numbers are written without a fraction.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                try container.encode(Int64(number))
            } else {
                try container.encode(number)
            }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    /// The JSON form of any `Encodable` value.
    public init(encoding value: some Encodable) throws {
        self = try JSONValue(parsing: JSONEncoder().encode(value))
    }

    /// The value as compact JSON bytes with sorted keys (written by hand, like the parser, to keep Codable off
    /// a screen's start-up path). Non-finite numbers, which JSON cannot carry, are written as null.
    public func data() -> Data { Data(text.utf8) }

    /// JSON text another encoder wrote (Foundation's `JSONEncoder` leaves DEL, the C1 controls and the invisible
    /// bidirectional controls raw), with those escaped as ``text`` escapes them: scalar for scalar otherwise. Only
    /// what is not ASCII (DEL aside) is touched: outside strings JSON is ASCII, and the C0 controls there are
    /// whitespace (inside strings an encoder already escaped them).
    public static func escapingControls(_ json: some Collection<UInt8>) -> String {
        let text = String(decoding: json, as: UTF8.self)
        let escaped = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && SafeText.isUnsafe(scalar) }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if escaped(scalar) { output += unicodeEscape(scalar) } else { output.unicodeScalars.append(scalar) }
        }
        return output
    }

    /// `\u009b`: four lower-case hex digits (every scalar ``SafeText/isUnsafe(_:)`` names is below U+10000).
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The value as compact JSON text with sorted keys.
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .number(let number):
            if !number.isFinite {
                output += "null"
            } else if number.rounded() == number, abs(number) < 1e15 {
                output += String(Int64(number))
            } else {
                output += "\(number)"
            }
        case .string(let string): JSONValue.writeString(string, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(key, to: &output)
                output += ":"
                fields[key]!.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            // DEL, the C1 controls and the invisible bidirectional controls too: JSON allows them raw, but a
            // terminal may act on U+009B as a CSI or show a line backwards after U+202E, and `--format json` is
            // often read on one. The list is SafeText's, the one the text outputs hold to.
            case _ where SafeText.isUnsafe(scalar): output += unicodeEscape(scalar)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
