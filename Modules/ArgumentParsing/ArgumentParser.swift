import SafeText

/// The result of parsing: each option's values already converted to its declared type, and the positionals.
public struct ParsedArguments: Sendable {
    private var values: [String: [any Sendable]] = [:]
    /// Arguments that are not options, in order.
    public internal(set) var positionals: [String] = []

    /// The value given for `option` (the last one given: a repeated single-value option takes its last value, as
    /// GNU tools and swift-argument-parser do, so an alias's default can be overridden), or nil.
    public subscript<Value>(_ option: Option<Value>) -> Value? { values[option.name]?.last as? Value }

    /// The value given for `option`, or `fallback`.
    public subscript<Value>(_ option: Option<Value>, default fallback: Value) -> Value { self[option] ?? fallback }

    /// Every value given for a repeatable `option`, in order.
    public func all<Value>(_ option: Option<Value>) -> [Value] {
        values[option.name]?.compactMap { $0 as? Value } ?? []
    }

    /// Whether `option` was given.
    public func isSet<Value>(_ option: Option<Value>) -> Bool { values[option.name] != nil }

    /// Whether an option of this name was given (the parser's own checks; commands read typed options).
    func has(_ name: String) -> Bool { values[name] != nil }

    /// Keeps `value` for `name`: after the earlier ones for a repeatable option, instead of them otherwise.
    mutating func record(_ value: any Sendable, for name: String, repeatable: Bool) {
        if repeatable { values[name, default: []].append(value) } else { values[name] = [value] }
    }
}

/// A small, strict command-line parser shared by the apps: unknown options are usage errors with a did-you-mean,
/// values are never guessed and each is converted to its declared type as it is read (every value given, so a
/// mistake is never hidden by a later one). An option declared repeatable keeps every value; any other option
/// given twice takes its last value, the habit of GNU tools and swift-argument-parser (`alias t='… --timeout 2'`
/// then `t --timeout 3`).
public struct ArgumentParser: Sendable {
    /// The options this parser accepts, in the order help lists them.
    public let options: [OptionSpec]

    /// A parser for `options`.
    public init(options: [any OptionDeclaration]) { self.options = options.map(\.spec) }

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
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let name = parts[0]
            guard let spec = options.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
                throw UsageError(
                    message: "unknown option '\(SafeText.visible(name))'"
                        + suggestion(for: name, among: options.map(\.name)))
            }
            let text: String
            if spec.placeholder == nil {
                guard parts.count == 1 else { throw UsageError(message: "option '\(name)' takes no value") }
                text = ""
            } else if parts.count == 2 {
                text = parts[1]
            } else if index < arguments.count {
                text = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "option '\(name)' needs a value: \(spec.synopsis)")
            }
            result.record(try spec.convert(text), for: spec.name, repeatable: spec.repeatable)
        }
        return result
    }
}
