/// What a screen command (`order-tracking [ORDER-ID]`, `screen NAME`, `checkout CART-ID`) was asked to show.
struct ScreenOptions: Sendable {
    /// The command that asked for it (`screen`, `checkout`; nil for tracking), for the help a usage error names.
    var command: String?
    /// The screen's name: `screens/NAME.json` on the backend.
    var name = "tracking"
    /// Its inputs by name, in the order given: the ids its cards read (`cart`) and its prompts' values (`promo`).
    var inputs: [(String, String)] = [("order", "1234")]
    var json = false
    var plain = false
    /// Follow the screen until it is finished (or a signal ends the run).
    var watch = false
    /// Under `--watch`, how often every card is reloaded when none asked for an earlier look.
    var every: Duration = .seconds(10)
    /// Under `--watch`, how long a card keeps its last info, marked stale, while the backend cannot be reached.
    var staleLimit: Duration = .seconds(60)
    var trace = false
    /// An action to carry out once the cards have loaded (`--pay`, `--action ID`).
    var perform: String?
}
