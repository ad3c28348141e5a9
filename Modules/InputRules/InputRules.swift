import SafeText

/// One kind of value a person gives (a code, an id), with its one rule and its one piece of advice. Every place
/// that takes such a value (`--input`, a live prompt, `--event`, a card reading a saved method or a promo code)
/// asks the same type, so two places can never disagree on what is valid or say different things about it.
public protocol InputRule: Sendable, Hashable, CustomStringConvertible {
    /// What a value of this kind is called in a refusal: "a code", "an id".
    static var noun: String { get }
    /// What to type instead, the same words wherever the value was refused.
    static var advice: String { get }
    /// The value itself, already checked.
    var text: String { get }
    /// The value, or nil when `text` breaks the rule.
    init?(_ text: String)
}

extension InputRule {
    /// The value as typed.
    public var description: String { text }

    /// Whether `text` is a value of this kind.
    public static func accepts(_ text: String) -> Bool { Self(text) != nil }

    /// "--input promo 'SAVE10=X' is not a code: use 1 to 16 letters and digits": `given` says where it came from.
    public static func refusal(of text: String, given: String) -> String {
        "\(given) \(InputEcho.quoted(text)) is not \(noun): \(advice)"
    }
}

/// A code: 1 to 16 ASCII letters and digits (a promo code, a payment method's id, what a live prompt takes). Nothing
/// in it can reach a path, a shell or a terminal, and it fits a prompt's input line.
public struct InputCode: InputRule {
    /// The most characters a code has.
    public static let longest = 16
    /// What a code is called in a refusal.
    public static let noun = "a code"
    /// The advice for a value that is no code.
    public static let advice = "use 1 to \(longest) letters and digits"
    /// The code.
    public let text: String

    /// `text` when it is 1 to 16 ASCII letters and digits.
    public init?(_ text: String) {
        guard (1...Self.longest).contains(text.utf8.count), text.unicodeScalars.allSatisfy(Self.mayHold) else {
            return nil
        }
        self.text = text
    }

    /// Whether a code may hold `character`: what a prompt lets through, key by key.
    public static func mayHold(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && character.unicodeScalars.allSatisfy(mayHold)
    }

    private static func mayHold(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
    }
}

/// An id: 1 to 64 ASCII letters, digits, `-` and `_` (an order, a cart, a user). It becomes an endpoint's segment,
/// so nothing else may reach a path.
public struct InputID: InputRule {
    /// The most characters an id has.
    public static let longest = 64
    /// What an id is called in a refusal.
    public static let noun = "an id"
    /// The advice for a value that is no id.
    public static let advice = "use 1 to \(longest) letters, digits, '-' or '_'"
    /// The id.
    public let text: String

    /// `text` when it is 1 to 64 ASCII letters, digits, `-` and `_`.
    public init?(_ text: String) {
        let allowed = text.unicodeScalars.allSatisfy {
            ("0"..."9").contains($0) || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || $0 == "-" || $0 == "_"
        }
        guard (1...Self.longest).contains(text.utf8.count), allowed else { return nil }
        self.text = text
    }
}

/// How a value a person gave is said back: made visible (SafeText) and cut, so a 100 KB value pasted by mistake is
/// echoed as one short line, never whole.
public enum InputEcho {
    /// The most characters said back of a value.
    public static let longest = 40

    /// `'value'`, visible, its first 40 characters and "… (N characters)" when longer.
    public static func quoted(_ value: String) -> String {
        guard value.count > longest else { return "'\(SafeText.visible(value))'" }
        return "'\(SafeText.visible(String(value.prefix(longest))))…' (\(value.count) characters)"
    }

    /// The value visible and cut as in ``quoted(_:)``, without quotes.
    public static func cut(_ value: String) -> String {
        guard value.count > longest else { return SafeText.visible(value) }
        return SafeText.visible(String(value.prefix(longest))) + "… (\(value.count) characters)"
    }
}
