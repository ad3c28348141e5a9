/// A stable name for a component ("payment"), shared by layouts, the registry and CODEOWNERS tooling,
/// so a screen can be described as data without naming any Swift type.
/// Being `RawRepresentable` by a `String`, it is coded as a plain JSON string, so layouts stay readable.
public struct ComponentID: RawRepresentable, Hashable, Sendable, Comparable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The id as it appears in layouts and JSON.
    public let rawValue: String

    /// Wraps a raw id; ids come from code or from a validated layout.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a raw id, without the label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Lets modules declare their id as a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The raw id, so diagnostics read naturally.
    public var description: String { rawValue }

    /// Orders ids alphabetically for stable listings.
    public static func < (lhs: ComponentID, rhs: ComponentID) -> Bool { lhs.rawValue < rhs.rawValue }
}
