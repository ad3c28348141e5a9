import Core
import Currency
import Foundation
import InputRules
import PromoInterface
import SafeText

/// The wire shape of `promos/<CODE>.json`; only Promo decodes it.
struct PromoPayload: Decodable {
    let code: String
    let percent_off: Int
    let cap: Money
}

/// The Promo squad's card: it takes the code a person typed or gave (`promo.entered`, read from its context on
/// each load), looks it up at its own endpoint and, when the code is known, announces the discount on
/// `promo.applied` for whoever applies it (Payments). An unknown code is said on this card and changes nothing
/// else. It declares that it refreshes on `promo.entered`, so a screen reloads it, and only it, when a person
/// types a code.
public struct PromoComponent: Component, EventPublishing, RefreshingOnEvents {
    /// The id layouts use.
    public static let id: ComponentID = "promo"
    /// What Promo publishes (declared in PromoInterface: `EventName.promoApplied`).
    public static let publishedEvents: Set<AnyEventName> = [.promoApplied]
    /// A typed code: look it up.
    public static let refreshingEvents: Set<AnyEventName> = [.promoEntered]
    /// What a person sends this card through a host's prompt (`squad lint` counts it as published).
    public static let inputEvents: Set<AnyEventName> = [.promoEntered]

    /// The card; the code it looks up comes in its context.
    public init() {}

    /// No code: nothing to fetch. A code (the latest `promo.entered`: surrounding blanks dropped, upper-cased, cut
    /// at 64 characters, since a paste is not a code): `promos/<CODE>.json`; a 404 (or text that cannot be a
    /// code) is an unknown code, any other failure (5xx, garbage, timeout) the card's own, with its reason.
    public func load(_ context: ComponentContext) async throws -> PromoInfo {
        guard let typed = context.latest(.promoEntered) else { return PromoInfo(status: .waiting) }
        let code = String(typed.trimmingCharacters(in: .whitespaces).uppercased().prefix(64))
        guard InputCode.accepts(code) else { return PromoInfo(status: .unknown, code: code) }
        let data: Data
        do { data = try await context.backend.fetch(try Endpoint("promos", code + ".json")) } catch .notFound {
            return PromoInfo(status: .unknown, code: code)
        }
        let payload = try JSONDecoder().decode(PromoPayload.self, from: data)
        guard payload.code.uppercased() == code else {
            throw Failure("promos/\(code).json describes '\(SafeText.visible(payload.code))', not \(code)")
        }
        guard
            let rule = PromoDiscount(
                code: code, percent: payload.percent_off, capMinorUnits: payload.cap.minorUnits,
                currency: payload.cap.currency)
        else { throw Failure("promos/\(code).json: percent_off must be 1 to 100 and the cap positive") }
        return PromoInfo(status: .applied, code: code, discount: rule, cap: payload.cap.description)
    }

    /// Skeleton, where the code stands, or nothing (the host hides a failed card and says why).
    public func card(for state: ComponentState<PromoInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Promo", lines: 1)
        case .failed: return nil
        case .info(let info):
            // A code is at most 16 characters; anything longer (a paste) is shown cut, never wrapped over lines.
            let typed = info.code ?? ""
            let code = SafeText.visible(typed.count > 16 ? typed.prefix(16) + "…" : typed)
            switch info.status {
            case .waiting: return Block(title: "Promo", rows: [Row("No code yet", value: "press p", style: .dim)])
            case .unknown: return Block(title: "Promo", rows: [Row("code \(code) is not recognised", style: .warning)])
            case .applied:
                let percent = info.discount?.percent ?? 0
                return Block(
                    title: "Promo",
                    rows: [Row("✓ \(code)", value: "\(percent)% off, up to \(info.cap ?? "?")", style: .success)])
            }
        }
    }

    /// The discount, once, when a code is applied.
    public func events(for info: PromoInfo) -> [DomainEvent] { info.discount.map { [$0.event] } ?? [] }
}

/// Promo's face to hosts: its registry line.
public enum PromoModule {
    /// The line a host adds to its registry.
    public static let registration = ComponentRegistration(module: "Promo", endpoint: "promos/{code}.json") {
        PromoComponent()
    }
}
