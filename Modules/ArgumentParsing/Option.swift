import Foundation
import InputRules
import SafeText

/// What a command's option list holds: an ``Option`` of any value type, or its erased ``OptionSpec``.
public protocol OptionDeclaration: Sendable {
    /// The declaration the parser and the help read.
    var spec: OptionSpec { get }
}

/// One option a command accepts, its value's type erased: what the parser, the help and the synopsis read.
/// Commands read values through the typed ``Option`` that made it, never through its spelling.
public struct OptionSpec: OptionDeclaration {
    /// The option's name with its dashes: "--format".
    public let name: String
    /// Other spellings that mean the same option ("-h" for "--help"): the parser accepts them, the OPTIONS line
    /// shows them first ("-h, --help"), and the value is kept under ``name``.
    public let aliases: [String]
    /// What follows it ("SECONDS", "text|json"); nil for a switch.
    public let placeholder: String?
    /// What it does, for `--help`; a "\n" starts an indented continuation line.
    public let help: String
    /// Whether it may be given more than once (every value kept, in order).
    public let repeatable: Bool
    /// Whether the command cannot run without it (its synopsis shows it outside the brackets).
    public let required: Bool
    let convert: @Sendable (String) throws(UsageError) -> any Sendable

    /// "--timeout SECONDS", "--plain": the option as a person types it.
    public var synopsis: String { placeholder.map { "\(name) \($0)" } ?? name }

    /// "-h, --help": the option's OPTIONS column, every spelling a person may type.
    var listing: String { (aliases + [synopsis]).joined(separator: ", ") }

    /// The OPTIONS section of a help text: one aligned line per option, in the order given.
    public static func helpLines(_ specs: [OptionSpec]) -> String {
        let width = (specs.map(\.listing.count).max() ?? 0) + 2
        return specs.map { spec in
            let lines = spec.help.split(separator: "\n", omittingEmptySubsequences: false)
            let pad = String(repeating: " ", count: width)
            let first = "  " + spec.listing + String(repeating: " ", count: width - spec.listing.count)
            return ([first + (lines.first ?? "")] + lines.dropFirst().map { "  " + pad + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Itself.
    public var spec: OptionSpec { self }

    /// `--help`, or `-h`, which every command accepts (``CommandDeclaration`` adds it): the short spelling a
    /// person types out of habit from other tools.
    public static let help = Option<Bool>.flag("--help", aliases: ["-h"], help: "this text").spec
}

/// An option declared with the type of its value: the parser converts and checks each value as it reads it
/// (a bad `--timeout` is a usage error before anything runs), and a command reads `parsed[option]` as that type.
public struct Option<Value: Sendable>: OptionDeclaration {
    /// The declaration the parser and the help read.
    public let spec: OptionSpec
    /// The option's name with its dashes.
    public var name: String { spec.name }

    /// An option whose value `convert` turns into a `Value`, or refuses with a usage error that says what to type.
    public init(
        _ name: String, _ placeholder: String, repeatable: Bool = false, required: Bool = false, help: String,
        convert: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        spec = OptionSpec(
            name: name, aliases: [], placeholder: placeholder, help: help, repeatable: repeatable, required: required,
            convert: { (text: String) throws(UsageError) -> any Sendable in try convert(text) })
    }

    init(spec: OptionSpec) { self.spec = spec }
}

extension Option where Value == Bool {
    /// A switch: `--plain`; `parsed[option]` is true when given (`aliases`: other spellings, such as "-h").
    public static func flag(_ name: String, aliases: [String] = [], help: String) -> Option {
        Option(
            spec: OptionSpec(
                name: name, aliases: aliases, placeholder: nil, help: help, repeatable: false, required: false,
                convert: { _ in true }))
    }
}

extension Option where Value == String {
    /// Any text: `--data-dir DIR`.
    public static func text(
        _ name: String, _ placeholder: String, repeatable: Bool = false, required: Bool = false, help: String
    ) -> Option {
        Option(name, placeholder, repeatable: repeatable, required: required, help: help) { $0 }
    }

    /// A code (InputRules' ``InputCode``: a promo code, a payment method's id), refused with the one piece of
    /// advice every input of that kind gets.
    public static func code(_ name: String, _ placeholder: String, help: String) -> Option {
        Option(name, placeholder, help: help) { (text: String) throws(UsageError) -> String in
            guard InputCode.accepts(text) else { throw UsageError(message: InputCode.refusal(of: text, given: name)) }
            return text
        }
    }
}

/// `text` as a number when it is written in plain decimal, else nil: ASCII digits with at most one "." (`2`,
/// `2.5`, `.5`, `5.`), and no leading zero before another digit. `Double(String)` also takes `0x10` (16),
/// `1e3`, `inf`, `nan`, `+5` and `-0`, and C and shells read `010` as octal 8: a person who typed any of those
/// meant something this would have to guess, so each is refused. No sign: a count or a duration is never
/// negative.
public func plainDecimal(_ text: String) -> Double? {
    let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
    let whole = parts[0]
    let fraction = parts.count == 2 ? parts[1] : text.utf8[text.utf8.endIndex...]
    let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    guard whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), !(whole.isEmpty && fraction.isEmpty),
        whole.count < 2 || whole.first != UInt8(ascii: "0")
    else { return nil }
    return Double(text)
}

extension Option where Value == Duration {
    /// A number of seconds within `range`, written in plain decimal (``plainDecimal(_:)``), kept to the
    /// millisecond; anything else names the range (and shows `example` as "e.g. --timeout 2.5"), and a number in
    /// another notation (`0x10`, `1e3`, `+5`, `010`, `５`) is told to use plain decimal (a negative one, `-1`, is
    /// only out of the range).
    public static func seconds(
        _ name: String, in range: ClosedRange<Double>, example: String? = nil, help: String
    ) -> Option {
        Option(name, "SECONDS", help: help) { (text: String) throws(UsageError) -> Duration in
            guard let seconds = plainDecimal(text), range.contains(seconds) else {
                let bounds =
                    "from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound))"
                // The notation is named only when it is the mistake: "-1" is out of range, "0x10" is not decimal.
                let unsigned = text.hasPrefix("-") ? String(text.dropFirst()) : text
                let notation =
                    plainDecimal(unsigned) == nil && (Double(text) != nil || text.contains(where: \.isNumber))
                    ? " in plain decimal" : ""
                throw UsageError(
                    message: "\(name) '\(SafeText.visible(text))' must be a number of seconds \(bounds)\(notation)"
                        + (example.map { ", e.g. \(name) \($0)" } ?? ""))
            }
            return .milliseconds(Int64((seconds * 1000).rounded(.down)))
        }
    }
}

extension Option where Value: RawRepresentable, Value.RawValue == String {
    /// One of `choices` (shown as "a|b|c"); anything else lists them, with a did-you-mean.
    public static func choice(_ name: String, among choices: [Value], help: String) -> Option {
        let words = choices.map(\.rawValue)
        return Option(name, words.joined(separator: "|"), help: help) { (text: String) throws(UsageError) -> Value in
            guard words.contains(text), let value = Value(rawValue: text) else {
                let listed = words.count == 2 ? words.joined(separator: " or ") : words.joined(separator: ", ")
                throw UsageError(
                    message: "\(name) '\(SafeText.visible(text))' must be \(listed)"
                        + suggestion(for: text, among: words))
            }
            return value
        }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the type's cases.
    public static func choice(_ name: String, help: String) -> Option {
        choice(name, among: Array(Value.allCases), help: help)
    }
}

/// `--format text|json`, the same for every command that prints something a script may read.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Lines for a person.
    case text
    /// One JSON document for a script.
    case json
}

/// A `NAME=VALUE` option's two parts (`--event order.status=delivered`).
public struct NamedValue: Equatable, Sendable {
    /// Before the first "=": never empty.
    public let name: String
    /// After it: may hold further "=".
    public let value: String

    /// A pair.
    public init(_ name: String, _ value: String) { (self.name, self.value) = (name, value) }
}

extension Option where Value == NamedValue {
    /// A repeatable `NAME=VALUE` option; `check` may refuse either part (after the shape is checked).
    public static func pairs(
        _ name: String, _ placeholder: String = "NAME=VALUE", example: String, help: String,
        check: @escaping @Sendable (NamedValue) throws(UsageError) -> NamedValue = { $0 }
    ) -> Option {
        Option(name, placeholder, repeatable: true, help: help) { (text: String) throws(UsageError) -> NamedValue in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(
                    message: "\(name) '\(SafeText.visible(text))' must be \(placeholder), e.g. \(name) \(example)")
            }
            return try check(NamedValue(parts[0], parts[1]))
        }
    }
}
