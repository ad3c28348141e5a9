import Core
import Foundation

/// One card of a screen at one moment, as plain values: everything an output needs (a live terminal, plain
/// frames, a JSON report, a test), so no output reads a component or decides visibility for itself.
public struct CardFrame: Sendable, Equatable {
    /// The component in this slot.
    public let id: ComponentID
    /// The squad module that registered it.
    public let module: String
    /// Where its state machine is.
    public var phase: Phase = .loading
    /// Whether the card is on screen: the one answer every output uses.
    public var visible = true
    /// While a transport failure keeps the last info on screen: when that info was fresh. Nil when fresh.
    public var staleSince: Date?
    /// What to draw: the component's card, or its last info card while stale.
    public var block: Block?
    /// The component's info as JSON (only when the runtime was asked for info, at settled moments).
    public var info: Data?
    /// Why it last failed, while failed.
    public var reason: String?
    /// Milliseconds from the start until the card last settled (info or failure).
    public var settledMs: Int?
    /// Its failure fails the screen (the definition marked it critical).
    public var critical = false

    /// A card that has not reported anything yet.
    public init(id: ComponentID, module: String) {
        self.id = id
        self.module = module
    }
}

/// How a card took an event delivered to the screen (``ScreenRuntime/deliver(_:)``).
public enum EventReaction: Sendable, Equatable {
    /// It asked to be reloaded on it, and was.
    case reloaded
    /// Its card changed without a reload.
    case updated
    /// Nothing visible changed: it does not act on that event now.
    case unchanged
}

/// The whole screen at one moment.
public struct ScreenFrame: Sendable, Equatable {
    /// The cards, in layout order.
    public var cards: [CardFrame]
    /// Milliseconds since the run started, on the runtime's clock.
    public var elapsedMs: Int
    /// Whether a component said what the screen follows is finished (the order was delivered).
    public var finished: Bool
    /// Where a person's action (pay, cancel) is, if one was asked for.
    public var action: ActionProgress?
    /// The screen a finished action leads to (the live screen follows it).
    public var next: ScreenLink?
    /// Why the screen as a whole has failed (a critical card hidden by a failure, or one no module registers:
    /// "total: server answered HTTP 500"), as the state decided it (``ScreenState/failure``); nil while every
    /// critical card is shown (stale counts as shown). Outputs and the exit status read it; none decides it again.
    public var failure: String?
    /// What the action's reducer told a person since the last frame, in order (``ActionState/told``): each notice
    /// is in one frame only, so a live screen shows every one it is handed, never asking the runtime.
    public var told: [ActionNotice]
    /// When the screen last settled, on the runtime's clock (the live screen's "updated" time); nil before.
    public var settledAt: Date?

    /// A frame as the runtime hands it out; public so an output can be tested with any screen.
    public init(
        cards: [CardFrame], elapsedMs: Int, finished: Bool, action: ActionProgress? = nil, next: ScreenLink? = nil,
        failure: String? = nil, told: [ActionNotice] = [], settledAt: Date? = nil
    ) {
        (self.cards, self.elapsedMs, self.finished, self.action, self.next) = (cards, elapsedMs, finished, action, next)
        (self.failure, self.told, self.settledAt) = (failure, told, settledAt)
    }

    /// Something failed: a card is hidden, or shown stale. The run's status is "degraded".
    public var degraded: Bool { cards.contains { $0.phase == .failed } }
}

/// Why a frame was handed out.
public enum FrameMoment: Sendable, Equatable {
    /// The first frame: every card's skeleton, before anything loads.
    case first
    /// A card changed while loads are under way.
    case changed
    /// Everything asked for has answered (after the first loads, and after each `--every` round or refresh).
    case settled
}

/// One card of a layout: the component id and the raw payload slice the backend gave it, if any.
public struct ScreenEntry: Sendable, Equatable {
    /// The component to put there.
    public let id: ComponentID
    /// Bytes for that component alone; the runtime never looks inside.
    public let payload: Data?
    /// When it fails (and is hidden), the whole screen has failed: there is nothing worth showing without it.
    public var critical: Bool

    /// An entry for `id`.
    public init(id: ComponentID, payload: Data? = nil, critical: Bool = false) {
        (self.id, self.payload, self.critical) = (id, payload, critical)
    }
}

/// How one screen runs.
public struct ScreenSettings: Sendable {
    /// The ids every component's context gets (`["order": "1234"]`).
    public var ids: [String: String]
    /// Each load's deadline.
    public var timeout: Duration = .seconds(5)
    /// Keep reloading until the screen is finished (or the task is cancelled).
    public var watch = false
    /// Under `watch`, how often every card is reloaded when none asked for an earlier look.
    public var every: Duration = .seconds(10)
    /// How long a card that showed info may stay on screen, marked stale, while refreshes fail for transport
    /// reasons.
    public var staleLimit: Duration = .seconds(60)
    /// Encode each card's info as JSON at settled moments (only JSON output needs it).
    public var includeInfo = false

    /// How the cards are shown: on a screen with others, or alone (`preview`).
    public var presentation: Presentation = .embedded
    /// Whether ``ScreenRuntime/run(_:)`` loads the cards; false shows the skeletons only (a squad previewing its
    /// loading state).
    public var load = true
    /// What a person can type on a live screen (none elsewhere), which reads them here; what is typed comes back
    /// as ``ScreenAction/input(_:)``.
    public var prompts: [ConsolePrompt] = []
    /// What a person can do on it (the definition's actions); validating cards answer each one as they load.
    public var actions: [ActionSpec] = []
    /// One of ``actions`` to carry out, already confirmed, once the first loads have settled (`--pay`); not with
    /// `watch`. The host decides both once (it tells a person which actions the screen has, and refuses `--pay`
    /// with `--watch`), so the screen takes the action itself and checks neither again.
    public var perform: ActionSpec?
    /// What a person said before the screen started (a prompt's value: `--input method=cash`): routed at the
    /// start as if typed, kept in the state of each card that takes it and handed to every load of it.
    public var said: [DomainEvent] = []
    /// Where the attempts of the screen's sending actions are kept (``AttemptLedger``); nil: the screen sends
    /// nothing, since a send whose key no ledger keeps could not be retried safely.
    public var attempts: (any AttemptLedger)?
    /// Where the cards' squad code runs: in this process unless the host hands it workers (order-tracking runs
    /// each module's code in a worker process of its own, so a crash costs only that module's cards).
    public var runner: any ComponentRunner = InProcess()

    /// Settings for a screen whose components read `ids`.
    public init(ids: [String: String]) { self.ids = ids }
}

/// Where the runtime reports what is not a frame. Called from the runtime's tasks, never under a lock.
public struct RuntimeReport: Sendable {
    /// A line for `--trace` (nil: tracing off); the runtime prefixes the time.
    public var trace: (@Sendable (String) -> Void)?
    /// Something a person should see on stderr (a skipped card, a refused event cycle, a diagnostic).
    public var diagnostic: @Sendable (String) -> Void
    /// An analytics event a squad asked to record, with the card it came from.
    public var analytics: (@Sendable (AnalyticsEvent, ComponentID) -> Void)?
    /// Every step of the run: the action reduced, the effects it asked for and the state after it, before those
    /// effects run. What a test harness watches to see a card exactly as production moves it (nil: nobody).
    public var step: (@Sendable (ScreenAction, [ScreenEffect], ScreenState) -> Void)?

    /// A report that sends diagnostics to `diagnostic` and nothing else anywhere.
    public init(
        diagnostic: @escaping @Sendable (String) -> Void, trace: (@Sendable (String) -> Void)? = nil,
        analytics: (@Sendable (AnalyticsEvent, ComponentID) -> Void)? = nil
    ) {
        (self.diagnostic, self.trace, self.analytics) = (diagnostic, trace, analytics)
    }
}
