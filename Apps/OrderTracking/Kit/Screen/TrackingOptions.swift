/// What `order-tracking [ORDER-ID]` was asked to do.
struct TrackingOptions: Sendable {
    var order = "1234"
    var json = false
    var plain = false
    /// Follow the order until it is finished (or a signal ends the run).
    var watch = false
    /// Under `--watch`, how often every card is reloaded when none asked for an earlier look.
    var every: Duration = .seconds(10)
    /// Under `--watch`, how long a card keeps its last info, marked stale, while the backend cannot be reached.
    var staleLimit: Duration = .seconds(60)
    var trace = false
    /// `--promo CODE`: a code applied through the Promo card from the start.
    var promo: String?
}
