import Foundation

/// A payload that does not have the shape a component expects, said the way a person fixes it:
/// "missing key 'logo' at method", "expected Int at items.[0].quantity".
public struct PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and where.
    public let summary: String

    /// A problem in a payload, in words.
    public init(_ summary: String) { self.summary = summary }

    /// The summary.
    public var description: String { summary }
}

/// The fields of one JSON object, read by name with typed accessors. Squads decode payloads with it instead of
/// Codable: a few lines per payload, every error names the key and its path, and a screen's start-up does not
/// pay for Codable's generic machinery on each payload type (issue 7 measured it as the largest cost).
public struct JSONFields: Sendable {
    private let fields: [String: JSONValue]
    private let path: [String]

    /// The fields of `value`, which must be an object; `path` is where it sits, for messages.
    public init(_ value: JSONValue, path: [String] = []) throws(PayloadError) {
        guard case .object(let fields) = value else {
            throw PayloadError("expected an object" + JSONFields.at(path))
        }
        self.fields = fields
        self.path = path
    }

    /// Parses `data` and reads its top-level object.
    public init(parsing data: Data) throws(PayloadError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: data) } catch { throw PayloadError(error.description) }
        try self.init(value)
    }

    /// A required string.
    public func string(_ key: String) throws(PayloadError) -> String {
        guard let value = try stringIfPresent(key) else { throw missing(key) }
        return value
    }

    /// A string that may be absent or null.
    public func stringIfPresent(_ key: String) throws(PayloadError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let string)?: return string
        default: throw mismatch("String", key)
        }
    }

    /// A required whole number (a fraction or a number out of range is an error, never rounded).
    public func int(_ key: String) throws(PayloadError) -> Int {
        guard let value = try intIfPresent(key) else { throw missing(key) }
        return value
    }

    /// A whole number that may be absent or null.
    public func intIfPresent(_ key: String) throws(PayloadError) -> Int? {
        switch fields[key] {
        case nil, .null?: return nil
        case .number(let number)?:
            guard number.rounded() == number, let whole = Int(exactly: number) else { throw mismatch("Int", key) }
            return whole
        default: throw mismatch("Int", key)
        }
    }

    /// A required true or false.
    public func bool(_ key: String) throws(PayloadError) -> Bool {
        guard fields[key] != nil else { throw missing(key) }
        guard case .bool(let bool)? = fields[key] else { throw mismatch("Bool", key) }
        return bool
    }

    /// A true or false that may be absent or null.
    public func boolIfPresent(_ key: String) throws(PayloadError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let bool)?: return bool
        default: throw mismatch("Bool", key)
        }
    }

    /// Every key of the object, sorted (for maps keyed by name, like `_faults.json`).
    public var keys: [String] { fields.keys.sorted() }

    /// A required nested object.
    public func object(_ key: String) throws(PayloadError) -> JSONFields {
        guard let value = fields[key] else { throw missing(key) }
        return try JSONFields(value, path: path + [key])
    }

    /// A nested object that may be absent or null.
    public func objectIfPresent(_ key: String) throws(PayloadError) -> JSONFields? {
        guard let value = fields[key], value != .null else { return nil }
        return try JSONFields(value, path: path + [key])
    }

    /// A required list of objects, each read with its index in the path ("items.[0]").
    public func objects(_ key: String) throws(PayloadError) -> [JSONFields] {
        guard let value = fields[key] else { throw missing(key) }
        guard case .array(let items) = value else { throw mismatch("Array", key) }
        var result: [JSONFields] = []
        for (index, item) in items.enumerated() {
            result.append(try JSONFields(item, path: path + [key, "[\(index)]"]))
        }
        return result
    }

    /// A problem with `key` in this object that the accessors cannot see (a business rule on its value).
    public func invalid(_ key: String, _ problem: String) -> PayloadError {
        PayloadError(problem + JSONFields.at(path + [key]))
    }

    private func missing(_ key: String) -> PayloadError { PayloadError("missing key '\(key)'" + JSONFields.at(path)) }

    private func mismatch(_ type: String, _ key: String) -> PayloadError {
        PayloadError("expected \(type)" + JSONFields.at(path + [key]))
    }

    private static func at(_ path: [String]) -> String { path.isEmpty ? "" : " at " + path.joined(separator: ".") }
}
