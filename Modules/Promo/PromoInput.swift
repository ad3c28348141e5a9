import Core
import Faces

/// The Promo card's input interface: the code a person typed on the live screen's prompt (`promo.entered`), or
/// gave with `--promo CODE`. The host holds it and hands it what it hears; the card reads it on its next load
/// (the screen reloads the card, which declared that it refreshes on `promo.entered`).
public final class PromoInput: Sendable {
    private let code: Locked<String?>

    /// An input holding `code` from the start (`--promo`), or none yet.
    public init(code: String? = nil) { self.code = Locked(code.map(PromoInput.normalised)) }

    /// Takes a code: surrounding blanks dropped, upper-cased, and cut at 64 characters (a paste is not a code).
    public func submit(_ text: String) { code.withLock { $0 = PromoInput.normalised(text) } }

    /// Takes the code a `promo.entered` event carries; any other event is not for this input.
    public func hear(_ event: DomainEvent) {
        if let code = event.payload(of: .promoEntered) { submit(code) }
    }

    /// The code submitted last, or nil.
    public var current: String? { code.withLock { $0 } }

    private static func normalised(_ text: String) -> String {
        String(text.trimmingCharacters(in: .whitespaces).uppercased().prefix(64))
    }
}
