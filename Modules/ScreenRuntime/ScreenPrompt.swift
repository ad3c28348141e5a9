import Core
import InputRules
import JSON

/// One prompt of a screen's definition: the name a command line gives its value by (`--input promo=SAVE10`), the
/// line the live screen opens for it, and the card it feeds (added to the screen when its value is given). A
/// value, typed or given, is the prompt's event; the screen keeps it in the card's state.
public struct ScreenPrompt: Sendable, Equatable {
    /// The input's name ("promo", "method"): the definition's `"name"`, or the card it feeds.
    public let name: String
    /// What the live screen opens, and the event it sends.
    public let prompt: ConsolePrompt
    /// The card it feeds, which joins the screen when the value is given or a person may type one.
    public let card: ComponentID?

    /// A prompt named `name` that sends `prompt`'s event to `card`.
    public init(name: String, prompt: ConsolePrompt, card: ComponentID? = nil) {
        (self.name, self.prompt, self.card) = (name, prompt, card)
    }

    /// Whether `value` is what a person could type into it: a code (InputRules' ``InputCode``, the one rule
    /// `--input`, `--event` and the cards that read it apply too), no longer than the prompt's line.
    public func takes(_ value: String) -> Bool { InputCode.accepts(value) && value.count <= prompt.limit }

    /// The event a value given for it is (`promo.entered` = "SAVE10"), routed as a typed one is.
    public func event(_ value: String) -> DomainEvent { DomainEvent(prompt.event, text: value) }

    /// Reads one entry of `prompts`: a one-character `key`, a `label`, the `event`, optionally `effect`, `card`
    /// and `name` (by default the card's id).
    init(json value: JSONValue, screen: String) throws {
        guard case .object(let fields) = value, case .string(let key)? = fields["key"], key.count == 1,
            let character = key.first, character.isASCII, case .string(let label)? = fields["label"],
            case .string(let event)? = fields["event"]
        else {
            throw Failure(
                "screens/\(screen).json: a prompt needs a one-character 'key', a 'label' and the 'event' it sends")
        }
        let effect = fields["effect"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? label
        let card = fields["card"].flatMap { if case .string(let id) = $0 { ComponentID(id) } else { nil } }
        let named = fields["name"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        guard let name = named ?? card?.rawValue, ScreenDefinition.isName(name) else {
            throw Failure(
                "screens/\(screen).json: prompt '\(key)' needs a 'name' of lower-case letters, digits, '-' and '_' "
                    + "(the --input it is given by)")
        }
        self.init(
            name: name, prompt: ConsolePrompt(key: character, label: label, effect: effect, event: event), card: card)
    }
}

/// A line a person can type a code into on the live screen, declared by the host: the key that opens it, what
/// it asks, and the event the runtime routes (by the cards' own declarations) when Enter sends it. A code is
/// ASCII letters and digits, at most `limit` of them.
public struct ConsolePrompt: Sendable, Equatable {
    /// The key that opens it ("p").
    public let key: Character
    /// What it asks ("Promo code").
    public let label: String
    /// What the key does, for the key help ("enter a promo code").
    public let effect: String
    /// The event sent with the code as its value ("promo.entered").
    public let event: String
    /// The longest code it takes; a longer paste is cut here.
    public let limit: Int

    /// A prompt opened by `key`.
    public init(key: Character, label: String, effect: String, event: String, limit: Int = 16) {
        (self.key, self.label, self.effect, self.event, self.limit) = (key, label, effect, event, limit)
    }

    /// What a prompt accepts, key by key: ASCII letters and digits (`../x`, `A?B`, `é1` are no codes, so they are
    /// never typed into one).
    public static func mayBeTyped(_ character: Character) -> Bool {
        InputCode.mayHold(character)
    }
}
