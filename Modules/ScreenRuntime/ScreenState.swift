import Core
import Foundation

/// Everything the runtime knows about one card, in one value: the phase and the load under way, what is drawn
/// and why, the stale mark, the events it heard and said, and when it wants its next look. Only
/// ``ScreenState/reduce(_:at:)`` changes it, so "why is this card hidden" has one place to look.
public struct CardState: Sendable, Equatable {
    /// The component in this slot.
    public let id: ComponentID
    /// The squad module that registered it (outputs group and credit by it).
    public let module: String
    /// Events it consumes into its info.
    public let consumes: Set<String>
    /// Events after which it asks to be loaded again.
    public let refreshesOn: Set<String>
    /// Its skeleton: drawn at the start and again when a failed card is retried.
    public let skeleton: Block?
    /// Its failure fails the whole screen.
    public var critical = false
    /// It answers for actions (``Validatable``): without info it counts as "could not check".
    public var validates = false
    /// Its verdict on each of the screen's actions, from its latest info.
    public var verdicts: [UserAction: Verdict] = [:]
    /// Where its state machine is.
    public var phase: Phase = .loading
    /// Bumped each time a load starts: an answer for an older number is late, and dropped.
    public var generation = 0
    /// Whether a load is under way.
    public var loading = false
    /// Whether the card is on screen.
    public var visible = true
    /// While a transport failure keeps the last info on screen: when that info was fresh.
    public var staleSince: Date?
    /// Since when loads have failed for a transport reason, while the card is stale.
    public var failingSince: Date?
    /// What is drawn: the component's latest card, or while stale its last info card.
    public var block: Block?
    /// The component's latest card: what a hidden card falls back to when it is shown again.
    public var drawn: Block?
    /// Its last card while showing info: what a stale card keeps on screen.
    public var lastInfoBlock: Block?
    /// Its last info (meaningful in `.info`; a stale card keeps it for the JSON report).
    public var info: AnyInfo?
    /// That info as JSON, when the screen keeps JSON (the JSON report's `info`).
    public var json: Data?
    /// When that info arrived: a stale card is marked "as of" this time.
    public var freshAt: Date?
    /// Why it last failed, while failed.
    public var reason: String?
    /// When it last settled (info or failure).
    public var settledAt: Date?
    /// When it asked to be looked at again (the earliest ask wins).
    public var due: Date?
    /// The latest event of each name routed to it (a person's input included): the one place a card's inputs
    /// live. Handed to every later load in its context, and those it consumes applied again to every later info.
    public var received: [DomainEvent] = []
    /// The events it has published: each is said once.
    public var published: [DomainEvent] = []
    /// It has shown info at least once (analytics hears of a card when it appears, not on every reload).
    public var shownOnce = false
    /// It failed since it last showed info: the next info shows it again.
    public var hidden = false

    /// A card showing `skeleton`, before its first load.
    public init(
        id: ComponentID, module: String, consumes: Set<String> = [], refreshesOn: Set<String> = [],
        skeleton: Block? = nil
    ) {
        (self.id, self.module, self.consumes, self.refreshesOn) = (id, module, consumes, refreshesOn)
        (self.skeleton, block, drawn) = (skeleton, skeleton, skeleton)
    }

    /// Every event name routed to it.
    public var hears: Set<String> { consumes.union(refreshesOn) }
}

/// A whole screen: its cards, its clock marks and whether it is over. One value, changed by one function.
public struct ScreenState: Sendable, Equatable {
    /// The cards, in layout order.
    public var cards: [CardState]
    /// When the screen started, on the runtime's clock.
    public let started: Date
    /// Each load's deadline.
    public let timeout: Duration
    /// Keep looking until the screen is finished (or stopped).
    public let watch: Bool
    /// Under watch, how often every card is loaded again when none asked for an earlier look.
    public let every: Duration
    /// How long a card may stay on screen, marked stale, while its loads fail for transport reasons.
    public let staleLimit: Duration
    /// Whether answers keep their info as JSON.
    public let keepsJSON: Bool
    /// A component said what the screen follows is finished (the order was delivered).
    public var finished = false
    /// The next `every` round under watch (set once the first loads have settled).
    public var nextRound: Date?
    /// A person asked for every card to be loaded again: done at the next look.
    public var reloadAll = false
    /// The loads under way are that reload: another `r` before they settle is the same one.
    public var reloading = false
    /// The loads under way are the last look after the screen finished: once they settle, the run is over.
    public var lastLook = false
    /// Without watch, a person's input asked for a look: the cards due by then are loaded once it settles.
    public var followUp = false
    /// Events handed to cards whose answers have not come back yet.
    public var delivering = 0
    /// The run is over: nothing is loaded or drawn any more.
    public var stopped = false
    /// The wake-up last asked for, so the same one is not asked for twice.
    public var wakeAt: Date?
    /// What is open over the live screen (dialog, prompt, tab content) and what a key means now.
    public var console: ScreenConsole
    /// A person's code was sent: its "Looking up …" line goes once the screen settles.
    public var inputPending = false
    /// What a person can do on this screen.
    public let actions: [ActionSpec]
    /// The screen's inputs (`["cart": "C100"]`): filled into the actions' words and addresses.
    public let inputs: [String: String]
    /// An action to carry out once the first loads settle (`--pay`).
    public var perform: String?
    /// What a person said before the start, routed at the start.
    public let said: [DomainEvent]
    /// Where the last action asked for is.
    public var action: ActionProgress?
    /// A confirmed action is on its way to the backend.
    public var sending = false
    /// The screen a finished action leads to.
    public var next: ScreenLink?
    /// A critical card of the definition that no module can show: the screen has failed from the start.
    public var missing: String?
    /// When the screen last settled (everything asked for had answered), on the runtime's clock: the live
    /// screen's "updated" time.
    public var settledAt: Date?
    /// The validating cards' verdicts on the action a host last asked about (``ScreenAction/ask(_:)``).
    public var asked: ActionCheck?
    /// Under watch, how often the host is asked who is signed in (nil: never).
    public let sessionLook: Duration?
    /// When the host is next asked who is signed in, on the runtime's clock.
    public var nextSessionLook: Date?

    /// A screen of `cards` that starts at `started`.
    public init(cards: [CardState], started: Date, settings: ScreenSettings) {
        self.cards = cards
        self.started = started
        (timeout, watch, every, staleLimit) = (settings.timeout, settings.watch, settings.every, settings.staleLimit)
        keepsJSON = settings.includeInfo
        console = ScreenConsole(prompts: settings.prompts, actions: settings.actions)
        (actions, inputs, perform) = (settings.actions, settings.ids, settings.watch ? nil : settings.perform)
        said = settings.said
        sessionLook = settings.watch ? settings.sessionLook : nil
    }

    /// Whether no load, delivery or send is under way.
    public var quiet: Bool { delivering == 0 && !sending && !cards.contains(where: \.loading) }

    /// The screen as the outputs see it.
    public func frame(at now: Date) -> ScreenFrame {
        ScreenFrame(
            cards: cards.map { card in
                var frame = CardFrame(id: card.id, module: card.module)
                frame.phase = card.phase
                frame.visible = card.visible
                frame.staleSince = card.staleSince
                frame.block = card.block
                frame.info = card.phase == .info || card.staleSince != nil ? card.json : nil
                frame.reason = card.reason
                frame.settledMs = card.settledAt.map(milliseconds)
                frame.critical = card.critical
                return frame
            }, elapsedMs: milliseconds(now), finished: finished, action: action, next: next, missing: missing,
            console: console, settledAt: settledAt)
    }

    /// Milliseconds from the start to `date`, as traces and frames count them.
    public func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince(started) * 1000).rounded(.down)) }
}
