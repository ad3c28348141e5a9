import Core
import Foundation
import InputRules
import PaymentsInterface
import PromoInterface

/// The wire shape of `carts/<id>/methods.json`: the saved methods, and the one picked unless a person picks another.
struct SavedMethodsPayload: Decodable {
    struct Saved: Decodable {
        let id: String
        let method: PaymentPayload.Method
        let usable: Bool
        let note: String?
    }
    let methods: [Saved]
    let chosen: String?
}

/// The saved ways to pay, and which one this checkout would use.
public struct SavedMethods: Sendable, Equatable, Encodable {
    /// One saved method.
    public struct Saved: Sendable, Equatable, Encodable {
        /// The provider's id for it ("visa4242").
        public let id: String
        /// As a person reads it ("Visa •••• 4242").
        public let label: String
        /// Whether it can pay now (an expired card cannot).
        public let usable: Bool
        /// Why not, when it cannot.
        public let note: String?
    }

    /// The methods in the order the backend gave them.
    public let methods: [Saved]
    /// The chosen method's id, when one usable method is chosen.
    public internal(set) var chosen: String?
    /// What a person's last choice came to, when it chose nothing ("3 is not one of the methods").
    public internal(set) var note: String?

    /// The chosen method, if it is one of the usable ones.
    public var choice: Saved? { methods.first { $0.id == chosen && $0.usable } }
}

/// The Payments squad's "how to pay" card on a checkout: the saved methods, each with its id, the chosen one
/// marked. A person picks another by its id, compared exactly (`payment.method.chosen`: the checkout's `m` prompt
/// or `--method ID`); anything else chooses nothing and says which ids there are. With no usable method chosen it
/// vetoes paying: "choose how to pay".
public struct PaymentMethodComponent: Component, Validatable, EventConsuming {
    /// The id layouts use.
    public static let id: ComponentID = "payment-method"
    /// A person's choice.
    public static let consumedEvents: Set<AnyEventName> = [.paymentMethodChosen]
    /// What a person sends this card through a screen's prompt (`squad lint` counts it as published).
    public static let inputEvents: Set<AnyEventName> = [.paymentMethodChosen]

    /// Creates the component; it needs nothing but the context it is loaded with.
    public init() {}

    /// Fetches `carts/<id>/methods.json` and applies Payments' rules to each method.
    public func load(_ context: ComponentContext) async throws -> SavedMethods {
        let data = try await context.payloadOrFetch(try Endpoint("carts", try context.id("cart"), "methods.json"))
        let payload = try JSONDecoder().decode(SavedMethodsPayload.self, from: data)
        let methods = try payload.methods.map { saved in
            guard InputCode.accepts(saved.id) else {
                throw Failure("a saved method's id is not a code: \(InputCode.advice)")
            }
            return SavedMethods.Saved(
                id: saved.id, label: try PaymentInfo.Method(saved.method).label, usable: saved.usable,
                note: saved.usable ? nil : saved.note ?? "cannot be used")
        }
        // One id naming two methods would make any choice of it a guess: the card fails rather than pay with either.
        if let twice = Dictionary(grouping: methods, by: \.id).first(where: { $0.value.count > 1 }) {
            throw Failure(
                "two saved methods have the id \(twice.key) (\(twice.value.map(\.label).joined(separator: ", ")))")
        }
        var info = SavedMethods(methods: methods, chosen: nil)
        info.chosen = info.methods.first { $0.id == payload.chosen && $0.usable }?.id
        return info
    }

    /// The methods with their ids, the chosen one marked; a warning when none can pay.
    public func card(for state: ComponentState<SavedMethods>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Pay with", lines: 2)
        case .failed: return nil
        case .info(let info):
            var rows = info.methods.map { saved in
                let mark = saved.id == info.choice?.id ? "●" : "○"
                let label = "\(mark) \(saved.label) (\(saved.id))"
                return saved.usable
                    ? Row(label, style: mark == "●" ? .bold : .plain)
                    : Row(label, value: saved.note ?? "", style: .dim)
            }
            if let note = info.note { rows.append(Row(note, style: .warning)) }
            if info.choice == nil { rows.append(Row("Choose how to pay", value: "press m", style: .warning)) }
            return Block(title: "Pay with", rows: rows)
        }
    }

    /// A person's choice by id, compared exactly; anything else is noted with the ids there are (and the one it
    /// nearly names) and leaves nothing chosen: paying with another method than the one named would be worse than
    /// asking again.
    public func consume(_ event: DomainEvent, into info: SavedMethods) -> SavedMethods {
        var info = info
        guard let choice = event.payload(of: .paymentMethodChosen) else { return info }
        guard let saved = info.methods.first(where: { $0.id == choice.id }) else {
            let asked = choice.id.prefix(16)
            let near = info.methods.filter { $0.id.lowercased() == choice.id.lowercased() }.map(\.id)
            let ids = info.methods.map(\.id).joined(separator: ", ")
            (info.chosen, info.note) = (
                nil,
                near.isEmpty
                    ? "\(asked) is not a method's id: \(ids.isEmpty ? "there are none" : "choose one of \(ids)")"
                    : "\(asked) is not a method's id (ids compare exactly): did you mean \(near.joined(separator: " or "))?"
            )
            return info
        }
        guard saved.usable else {
            (info.chosen, info.note) = (nil, "\(saved.label): \(saved.note ?? "cannot be used")")
            return info
        }
        (info.chosen, info.note) = (saved.id, nil)
        return info
    }

    /// Paying needs a usable method: the confirmation carries its id (sent) and its label ("with Visa •••• 4242").
    public func validate(_ action: UserAction, info: SavedMethods) -> Verdict {
        guard action == .pay else { return .allow }
        guard let choice = info.choice else {
            return .veto("choose how to pay" + (info.note.map { " (\($0))" } ?? ""))
        }
        return .confirm("with \(choice.label)", facts: ["method": .words(choice.label), "method_id": .text(choice.id)])
    }
}
