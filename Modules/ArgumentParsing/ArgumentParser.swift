import Foundation
import SafeText

/// What an option takes after its name.
public enum OptionValue: Equatable, Sendable {
    /// A switch: `--plain`.
    case none
    /// A required value (its placeholder for messages): `--format json` or `--format=json`.
    case required(String)
    /// An optional numeric value (its placeholder): `--watch` or `--watch 5`.
    case optionalNumber(String)
}

/// One option a command accepts, with the line `--help` shows for it: parser and help read the same list.
public struct OptionSpec: Equatable, Sendable {
    /// The option's name with its dashes: "--format".
    public let name: String
    /// What follows it.
    public let value: OptionValue
    /// What it does, for `--help` (empty: not listed).
    public let help: String

    /// Declares an option.
    public init(_ name: String, _ value: OptionValue = .none, help: String = "") {
        self.name = name
        self.value = value
        self.help = help
    }

    /// "--timeout SECONDS", "--watch [SECONDS]", "--plain": the option as a person types it.
    public var synopsis: String {
        switch value {
        case .none: name
        case .required(let placeholder): "\(name) \(placeholder)"
        case .optionalNumber(let placeholder): "\(name) [\(placeholder)]"
        }
    }

    /// The OPTIONS section of a help text: one aligned line per documented option, in the order given.
    public static func helpLines(_ specs: [OptionSpec]) -> String {
        let documented = specs.filter { !$0.help.isEmpty }
        let width = (documented.map(\.synopsis.count).max() ?? 0) + 2
        return documented.map { spec in
            "  " + spec.synopsis + String(repeating: " ", count: width - spec.synopsis.count) + spec.help
        }.joined(separator: "\n")
    }
}

/// The result of parsing: options by name (switches map to ""), repeated options in order, positionals in order.
public struct ParsedArguments: Equatable, Sendable {
    /// The last value of each option given.
    public var options: [String: String] = [:]
    /// Every value of options that may repeat (`--approved-by A --approved-by B`).
    public var repeated: [String: [String]] = [:]
    /// Arguments that are not options.
    public var positionals: [String] = []

    /// The value given for `option`, or nil: read through the option's declaration, never its spelling.
    public func value(_ option: OptionSpec) -> String? { options[option.name] }

    /// Whether `option` was given.
    public func isSet(_ option: OptionSpec) -> Bool { options[option.name] != nil }

    /// Every value given for a repeatable `option`, in order.
    public func values(_ option: OptionSpec) -> [String] { repeated[option.name] ?? [] }

    /// `option` as a number of seconds within `range` (`default` when absent), or a usage error that names the
    /// range (and shows `example` as "e.g. --timeout 2.5").
    public func seconds(
        _ option: OptionSpec, in range: ClosedRange<Double>, default fallback: Duration, example: String? = nil
    ) throws(UsageError) -> Duration {
        guard let text = value(option) else { return fallback }
        guard let seconds = Double(text), range.contains(seconds) else {
            let bounds = "from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound))"
            throw UsageError(
                message: "\(option.name) '\(SafeText.visible(text))' must be a number of seconds \(bounds)"
                    + (example.map { ", e.g. \(option.name) \($0)" } ?? ""))
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.down)))
    }

    /// A repeatable `NAME=VALUE` option's pairs, in order (`--event order.status=delivered`); neither part may
    /// be empty, and the value may hold further `=`.
    public func pairs(_ option: OptionSpec, example: String) throws(UsageError) -> [(name: String, value: String)] {
        try values(option).map { (text: String) throws(UsageError) -> (name: String, value: String) in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(
                    message:
                        "\(option.name) '\(SafeText.visible(text))' must be NAME=VALUE, e.g. \(option.name) \(example)")
            }
            return (parts[0], parts[1])
        }
    }

    /// `option` as one of `choices` (`default` when absent), or a usage error listing them, with a did-you-mean.
    public func choice(_ option: OptionSpec, among choices: [String], default fallback: String) throws(UsageError)
        -> String
    {
        guard let text = value(option) else { return fallback }
        guard choices.contains(text) else {
            let listed = choices.count == 2 ? choices.joined(separator: " or ") : choices.joined(separator: ", ")
            throw UsageError(
                message: "\(option.name) '\(SafeText.visible(text))' must be \(listed)"
                    + suggestion(for: text, among: choices))
        }
        return text
    }
}

/// A small, strict command-line parser shared by the apps: unknown options are usage errors with a
/// did-you-mean, values are never guessed, and only options listed in `repeatable` may be given twice.
public struct ArgumentParser: Sendable {
    /// The options this parser accepts, in the order help lists them.
    public let options: [OptionSpec]
    private let repeatable: Set<String>

    /// A parser for `options`; those named in `repeatable` may appear more than once.
    public init(options: [OptionSpec], repeatable: Set<String> = []) {
        self.options = options
        self.repeatable = repeatable
    }

    /// Parses `arguments` (without the program name).
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(
                    message: "unknown option '\(name)'" + suggestion(for: name, among: options.map(\.name)))
            }
            guard result.options[name] == nil || repeatable.contains(name) else {
                throw UsageError(message: "option '\(name)' given twice")
            }
            switch spec.value {
            case .none:
                guard parts.count == 1 else { throw UsageError(message: "option '\(name)' takes no value") }
                result.options[name] = ""
            case .required(let placeholder):
                if parts.count == 2 {
                    result.options[name] = parts[1]
                } else if index < arguments.count {
                    result.options[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(message: "option '\(name)' needs a value: \(name) \(placeholder)")
                }
                result.repeated[name, default: []].append(result.options[name]!)
            case .optionalNumber:
                if parts.count == 2 {
                    result.options[name] = parts[1]
                } else if index < arguments.count, Double(arguments[index]) != nil {
                    result.options[name] = arguments[index]
                    index += 1
                } else {
                    result.options[name] = ""
                }
            }
        }
        return result
    }
}

/// "; did you mean '--format'?" when a known word is within two edits, else "".
public func suggestion(for word: String, among candidates: [String]) -> String {
    let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
    return scored.map { "; did you mean '\($0.0)'?" } ?? ""
}

/// Levenshtein distance, for did-you-mean.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// Ids from the command line: letters, digits, `-`, `_`; 1 to 64 characters. Anything else could reach a path.
public func validateID(_ id: String, kind: String) throws(UsageError) -> String {
    let allowed = id.unicodeScalars.allSatisfy {
        ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
    }
    guard (1...64).contains(id.count), allowed else {
        throw UsageError(message: "invalid \(kind) id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
    }
    return id
}

/// A problem with the command line: the message says what was wrong and what to type instead.
public struct UsageError: Error, Equatable, Sendable {
    /// The message, without the program name.
    public let message: String

    /// Creates a usage error.
    public init(message: String) { self.message = message }
}
