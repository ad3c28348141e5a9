import Core
import Foundation
import JSON

/// A screen as the backend defines it (`screens/NAME.json`): its title, the ids its cards read, its cards in
/// order (some critical), what a person can do on it and type into it. Adding a screen is this file on the
/// backend; no host code changes.
public struct ScreenDefinition: Sendable, Equatable {
    /// The screen's name, as `order-tracking screen NAME` takes it.
    public let name: String
    /// The title, with `{input}` placeholders: "Checkout {cart}".
    public var title: String
    /// The ids the cards read (`context.id("cart")`), each given on the command line.
    public var inputs: [String]
    /// The cards in order.
    public var entries: [ScreenEntry]
    /// A per-subject layout whose `components` replace `entries` ("orders/{order}/screen.json"): a 404 there
    /// means the subject does not exist.
    public var layout: String?
    /// What a person can do on it.
    public var actions: [ActionSpec]
    /// What a person can type on the live screen or give by name on the command line, with the card each feeds.
    public var prompts: [ScreenPrompt]

    /// A definition; what the JSON gives.
    public init(
        name: String, title: String, inputs: [String], entries: [ScreenEntry], layout: String? = nil,
        actions: [ActionSpec] = [], prompts: [ScreenPrompt] = []
    ) {
        (self.name, self.title, self.inputs, self.entries) = (name, title, inputs, entries)
        (self.layout, self.actions, self.prompts) = (layout, actions, prompts)
    }

    /// Names an input may not take: the JSON report's own keys.
    static let reserved: Set<String> = [
        "components", "elapsed_ms", "seq", "status", "time", "screen", "action", "failure",
    ]

    /// Whether `name` can name a screen or an input: 1 to 32 of `a-z`, `0-9`, `-`, `_`, starting with a letter.
    public static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (97...122).contains(first), name.utf8.count <= 32 else { return false }
        return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95 }
    }

    /// Reads `screens/NAME.json`; every error names the field and what it must be.
    public static func parse(_ data: Data, name: String) throws -> ScreenDefinition {
        let (value, slices) = try JSONValue.parse(data) { path in
            path.count == 3 && path[0] == "components" && path[2] == "payload"
        }
        guard case .object(let root) = value else { throw Failure("screens/\(name).json must be a JSON object") }
        func text(_ key: String) throws -> String? {
            switch root[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw Failure("screens/\(name).json: '\(key)' must be a string")
            }
        }
        var inputs: [String] = []
        if case .array(let items)? = root["inputs"] {
            for item in items {
                guard case .string(let input) = item, isName(input), !reserved.contains(input),
                    !inputs.contains(input)
                else { throw Failure("screens/\(name).json: 'inputs' must be distinct lower-case names like \"cart\"") }
                inputs.append(input)
            }
        } else if root["inputs"] != nil {
            throw Failure("screens/\(name).json: 'inputs' must be a list of names")
        }
        let entries = try ScreenEntry.entries(root["components"], slices: slices, source: "screens/\(name).json") ?? []
        var definition = ScreenDefinition(
            name: name, title: try text("title") ?? name, inputs: inputs, entries: entries, layout: try text("layout"))
        if let prompts = root["prompts"] {
            guard case .array(let items) = prompts else {
                throw Failure("screens/\(name).json: 'prompts' must be a list")
            }
            definition.prompts = try items.map { try ScreenPrompt(json: $0, screen: name) }
            var names = Set(inputs)
            for prompt in definition.prompts
            where !names.insert(prompt.name).inserted || reserved.contains(prompt.name) {
                throw Failure(
                    "screens/\(name).json: prompt '\(prompt.prompt.key)': its name '\(prompt.name)' is an input's, "
                        + "another prompt's or one of the report's keys; give it a 'name' of its own")
            }
        }
        if let actions = root["actions"] {
            guard case .array(let items) = actions else {
                throw Failure("screens/\(name).json: 'actions' must be a list")
            }
            definition.actions = try items.map { try ActionSpec(json: $0, screen: name, prompts: definition.prompts) }
            for action in definition.actions
            where !isName(action.result) || reserved.contains(action.result) || inputs.contains(action.result) {
                throw Failure(
                    "screens/\(name).json: action '\(action.id)': 'result' must be a lower-case name that is not an "
                        + "input or one of the report's keys")
            }
        }
        try definition.checkKeys()
        return definition
    }

    /// Refuses two prompts or actions on one key, or two actions with one id: the live screen could open only one
    /// of them, and `--action` could name only one. The error names the file, the field and both holders.
    func checkKeys() throws {
        var holders: [Character: String] = [:]
        let keyed =
            prompts.map { ($0.prompt.key, "prompt '\($0.name)'", "prompts") }
            + actions.map { ($0.key, "action '\($0.id)'", "actions") }
        for (key, holder, field) in keyed {
            if let first = holders.updateValue(holder, forKey: key) {
                throw Failure(
                    "screens/\(name).json: '\(field)': \(holder)'s 'key' '\(key)' is \(first)'s too; give each its own key"
                )
            }
        }
        var ids = Set<String>()
        for action in actions where !ids.insert(action.id).inserted {
            throw Failure("screens/\(name).json: 'actions': the 'id' '\(action.id)' is given twice")
        }
    }

    /// Refuses a prompt whose event no card that hears it would get: its card (or, without one, any card of
    /// `entries`) must consume or refresh on it, as `registry` says of each component. A typo in `"event"` would
    /// otherwise run, and the typed value would silently do nothing. A prompt's own `card` must be registered (a
    /// typo there would drop the card it feeds); the screen's other unknown cards are skipped by the runtime with
    /// their own line.
    public func checkPrompts(against entries: [ScreenEntry], registry: ComponentRegistry, context: ComponentContext)
        throws(Failure)
    {
        for prompt in prompts {
            if let card = prompt.card, (try? registry.registration(for: card)) == nil {
                let known = registry.registrations.map(\.id.rawValue)
                throw Failure(
                    "screens/\(name).json: prompt '\(prompt.name)': its 'card' '\(card)' is no registered component "
                        + "(known: \(known.joined(separator: ", ")))")
            }
            let event = prompt.prompt.event
            let hearers = (prompt.card.map { [$0] } ?? entries.map(\.id)).compactMap { id in
                (try? registry.registration(for: id)).map { (id, $0.kernel(context: context)) }
            }
            guard !hearers.isEmpty,
                !hearers.contains(where: { $0.1.consumes.contains(event) || $0.1.refreshesOn.contains(event) })
            else { continue }
            let cards = hearers.map { id, kernel in
                let heard = (kernel.consumes.union(kernel.refreshesOn)).sorted()
                return "'\(id)' hears \(heard.isEmpty ? "no event" : heard.joined(separator: ", "))"
            }
            throw Failure(
                "screens/\(name).json: prompt '\(prompt.name)': its 'event' '\(event)' is heard by no card it feeds ("
                    + cards.joined(separator: "; ") + ")")
        }
    }

    /// Every name `--input` takes on this screen: its inputs, then its prompts'.
    public var inputNames: [String] { inputs + prompts.map(\.name) }

    /// Fetches `screens/NAME.json` from `backend` within `timeout` and reads it.
    public static func fetch(_ name: String, backend: any Backend, clock: any CourierClock, timeout: Duration)
        async throws(LayoutFailure) -> ScreenDefinition
    {
        let endpoint: Endpoint
        do { endpoint = try Endpoint("screens", name + ".json") } catch { throw .unreadable(Failure("\(error)")) }
        return try await fetchDecoded(endpoint, backend: backend, clock: clock, timeout: timeout) {
            try ScreenDefinition.parse($0, name: name)
        }
    }

    /// The cards for a subject: `entries`, or with a `layout` the subject's own layout fetched with `ids` (its
    /// cards keep the definition's critical marks). A 404 there means the subject does not exist.
    public func entries(
        for ids: [String: String], backend: any Backend, clock: any CourierClock, timeout: Duration
    ) async throws(LayoutFailure) -> (entries: [ScreenEntry], source: String) {
        guard let layout else { return (entries, "screens/\(name).json") }
        let endpoint: Endpoint
        do { endpoint = try Self.endpoint(layout, ids) } catch { throw .unreadable(Failure(describing: error)) }
        let critical = Set(entries.filter(\.critical).map(\.id))
        let fetched = try await ScreenEntry.fetchLayout(
            endpoint, backend: backend, clock: clock, timeout: timeout, defaultOrder: entries.map(\.id))
        let marked = fetched.map {
            ScreenEntry(id: $0.id, payload: $0.payload, critical: $0.critical || critical.contains($0.id))
        }
        return (marked, endpoint.path)
    }

    /// The runtime of this screen for `settings` (its ids are the inputs): its cards resolved (``entries(for:
    /// backend:clock:timeout:)``) and `extra` cards the screen does not name at the end (those a prompt feeds).
    public func runtime(
        settings: ScreenSettings, registry: ComponentRegistry, backend: any Backend, clock: any CourierClock,
        report: RuntimeReport, adding extra: [ComponentID] = []
    ) async throws(LayoutFailure) -> ScreenRuntime {
        var (entries, source) = try await entries(
            for: settings.ids, backend: backend, clock: clock, timeout: settings.timeout)
        entries += extra.filter { id in !entries.contains { $0.id == id } }.map { ScreenEntry(id: $0) }
        // Where the definition meets the registry: each prompt's event must reach a card that hears it.
        let context = ComponentContext(ids: settings.ids, backend: backend, clock: clock)
        do { try checkPrompts(against: entries, registry: registry, context: context) } catch {
            throw .unreadable(error)
        }
        return ScreenRuntime(
            entries: entries, registry: registry, backend: backend, clock: clock, settings: settings, report: report,
            source: source)
    }

    /// `template` with each `{name}` replaced by `values[name]`, or nil when a name has no value: a line or a
    /// path is never made with a hole in it.
    public static func fill(_ template: String, _ values: [String: String]) -> String? {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            guard let value = values[String(rest[rest.index(after: open)..<close])] else { return nil }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The endpoint `template` names with `values` filled in ("carts/{cart}/pay"), each segment checked.
    public static func endpoint(_ template: String, _ values: [String: String]) throws -> Endpoint {
        let segments = try template.split(separator: "/", omittingEmptySubsequences: false).map { part in
            guard let filled = fill(String(part), values) else {
                throw Failure("'\(template)' names a value nobody gave")
            }
            return filled
        }
        return try Endpoint(segments: segments)
    }
}

/// Something a person can do on a screen (pay, cancel an order), as the screen's definition declares it: the
/// key, the words, where it is sent. Every `Validatable` card on the screen is asked; see ``ActionCheck``.
public struct ActionSpec: Sendable, Equatable {
    /// The action itself, as components' `validate` receives it and its verdicts are kept: one value from the
    /// screen's definition to each card's verdict and the analytics of it.
    public let action: UserAction
    /// The action's name ("pay", "cancel-order"), as the definition, `--action` and the reports spell it.
    public var id: String { action.name }
    /// The key on the live screen.
    public var key: Character
    /// A short name ("Pay"): the dialog's title.
    public var label: String
    /// Where the confirmed action is POSTed ("carts/{cart}/pay"); nil: nothing is sent.
    public var send: String?
    /// The question before it goes ("Pay {amount} with {method}?"); `{…}` are the cards' facts and the inputs.
    public var question: String
    /// The line once done ("Paid {amount} with {method}: order {order}"); also the backend's answer's fields.
    public var done: String
    /// The JSON report's key for the result ("paid").
    public var result: String
    /// What the key does, for the key help ("may the order be cancelled?").
    public var help: String
    /// The screen to show after it is done, with the answer's fields as its inputs (on the live screen).
    public var then: String?
    /// The lines after the verdicts: allowed, vetoed (`{vetoes}`: "1 veto"), and nobody to ask.
    public var allowed, vetoed, unknown: String
    /// The prompts whose value, when a person gives one, the intent must carry under the prompt's name: a promo
    /// code asked for that the cards did not apply stops the action (``ActionCheck/missing``), never dropped.
    public var carries: [ScreenPrompt] = []
    /// The line when a send's outcome is not known (no answer, a redirect, a 5xx): it may have gone through, and a
    /// person must check before trying again ("The payment may have gone through: check before paying again.").
    public var uncertain: String

    /// An action with default words for `id`.
    public init(id: String, key: Character? = nil, label: String? = nil) {
        action = UserAction(id)
        self.key = key ?? id.first ?? "?"
        let label = label ?? id.prefix(1).uppercased() + id.dropFirst().replacingOccurrences(of: "-", with: " ")
        self.label = label
        question = "\(label)?"
        done = "\(label): done."
        result = id
        help = label.lowercased()
        allowed = "\(label): nobody objects."
        vetoed = "Can't \(label.lowercased()) ({vetoes})."
        unknown = "Cannot tell whether to \(label.lowercased()): no card on this screen answers for it."
        uncertain = "\(label) may have gone through: check before trying again."
    }

    init(json: JSONValue, screen: String, prompts: [ScreenPrompt] = []) throws {
        switch json {
        case .string(let id) where !id.isEmpty: self.init(id: id)
        case .object(let fields):
            func text(_ key: String) throws -> String? {
                switch fields[key] {
                case nil: return nil
                case .string(let value)? where !value.isEmpty: return value
                default: throw Failure("screens/\(screen).json: an action's '\(key)' must be a non-empty string")
                }
            }
            guard let id = try text("id") else { throw Failure("screens/\(screen).json: an action needs an 'id'") }
            let key = try text("key")
            guard key == nil || key?.count == 1 else {
                throw Failure("screens/\(screen).json: action '\(id)': 'key' must be one character")
            }
            self.init(id: id, key: key?.first, label: try text("label"))
            send = try text("send")
            question = try text("question") ?? question
            done = try text("done") ?? done
            result = try text("result") ?? result
            help = try text("help") ?? help
            then = try text("then")
            allowed = try text("allowed") ?? allowed
            vetoed = try text("vetoed") ?? vetoed
            unknown = try text("unknown") ?? unknown
            uncertain = try text("uncertain") ?? uncertain
            switch fields["carries"] {
            case nil: break
            case .array(let names)?:
                carries = try names.map { name in
                    guard case .string(let name) = name, let prompt = prompts.first(where: { $0.name == name }) else {
                        let known = prompts.map(\.name).joined(separator: ", ")
                        throw Failure(
                            "screens/\(screen).json: action '\(id)': 'carries' must name the screen's prompts "
                                + "(its prompts: \(known.isEmpty ? "none" : known))")
                    }
                    return prompt
                }
            default: throw Failure("screens/\(screen).json: action '\(id)': 'carries' must be a list of prompt names")
            }
        default: throw Failure("screens/\(screen).json: an action must be a name or {\"id\": …}")
        }
    }
}
