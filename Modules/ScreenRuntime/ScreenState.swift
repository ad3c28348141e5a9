import Core
import Foundation

/// What a card is, fixed for the whole run: read once from its registration and the definition, never changed by
/// the reducer, so nothing that happens to the card can contradict it.
public struct CardSpec: Sendable, Equatable {
    /// The component in this slot.
    public let id: ComponentID
    /// The squad module that registered it (outputs group and credit by it).
    public let module: String
    /// Events it consumes into its info.
    public let consumes: Set<String>
    /// Events after which it asks to be loaded again.
    public let refreshesOn: Set<String>
    /// Its failure fails the whole screen.
    public let critical: Bool
    /// It answers for actions (``Validatable``): without info it counts as "could not check".
    public let validates: Bool

    /// A card described by its registration (and the definition's critical mark).
    public init(
        id: ComponentID, module: String, consumes: Set<String> = [], refreshesOn: Set<String> = [],
        critical: Bool = false, validates: Bool = false
    ) {
        (self.id, self.module, self.consumes, self.refreshesOn) = (id, module, consumes, refreshesOn)
        (self.critical, self.validates) = (critical, validates)
    }

    /// Every event name routed to it.
    public var hears: Set<String> { consumes.union(refreshesOn) }
}

/// Info a card showed: the value, its JSON, the card the component drew for it and when it arrived. A stale card
/// keeps the last one on screen, and a hidden card keeps it for when it may go stale again.
public struct ShownInfo: Sendable, Equatable {
    /// The info (the component's own type, erased).
    public var info: AnyInfo?
    /// That info as JSON, when the screen keeps JSON (the JSON report's `info`).
    public var json: Data?
    /// The card the component drew for it.
    public var block: Block?
    /// When it arrived: a stale card is marked "as of" this time.
    public var at: Date

    /// Info that arrived `at`.
    public init(info: AnyInfo?, json: Data? = nil, block: Block?, at: Date) {
        (self.info, self.json, self.block, self.at) = (info, json, block, at)
    }
}

/// What a card has to show, and nothing a phase does not have: a waiting card has only its skeleton, a shown card
/// its info, a stale card the info it keeps and since when its loads fail, a hidden card why. So "hidden and
/// visible", or a stale mark without info, cannot be written down. A load under way is apart
/// (``CardState/loading``): a refresh keeps the info on screen, a retry keeps a failed card where it was.
public enum CardPhase: Sendable, Equatable {
    /// No info yet: the skeleton is drawn.
    case waiting
    /// Its info is on screen.
    case shown(ShownInfo)
    /// A transport failure keeps `last` on screen, marked stale, since loads began failing at `failingSince`; the
    /// card the component drew since (for the failure, or its skeleton on a retry) is `drawn`, shown if it is hidden.
    case stale(ShownInfo, failingSince: Date, reason: String, drawn: Block?)
    /// Off the screen after a failure: why, the card the component drew since, the info it last showed (if any) and,
    /// when transport failures made it stale first, since when they began.
    case hidden(reason: String, drawn: Block?, last: ShownInfo?, failingSince: Date?)
}

/// A card's skeleton: drawn (nil: the card draws nothing while it waits), or asked of its module's worker and not
/// yet answered (the first frame does not wait for it; the screen is not settled until it comes).
public enum Skeleton: Sendable, Equatable {
    /// The card its component draws while it loads.
    case drawn(Block?)
    /// Asked of its worker (``ScreenEffect/sketch(card:)``).
    case asked
    /// Asked of its worker, whose code failed while drawing it (a crash): why. Nothing is drawn, and a card still
    /// waiting says the reason (`preview --state loading` shows a squad its skeleton's crash).
    case failed(String)

    /// What is drawn for it now.
    public var block: Block? {
        if case .drawn(let block) = self { return block }
        return nil
    }
}

/// Everything the runtime knows about one card, in one value: what it is (``spec``), what it has to show
/// (``phase``), the load under way, the events it heard and said, and when it wants its next look. Only
/// ``ScreenState/reduce(_:at:)`` changes it, so "why is this card hidden" has one place to look.
public struct CardState: Sendable, Equatable {
    /// What the card is; never changes.
    public let spec: CardSpec
    /// What it has to show.
    public var phase: CardPhase = .waiting
    /// Bumped each time a load starts: an answer for an older number is late, and dropped.
    public var generation = 0
    /// A load was started and its answer not yet taken (one cut short by the stop stays so: the card is left
    /// loading, as its last frame says).
    public var loading = false
    /// Its verdict on each of the screen's actions, from its latest info.
    public var verdicts: [UserAction: Verdict] = [:]
    /// When it last settled (info or failure).
    public var settledAt: Date?
    /// When it asked to be looked at again (the earliest ask wins).
    public var due: Date?
    /// The latest event of each name routed to it (a person's input included): the one place a card's inputs
    /// live. Handed to every later load in its context, and those it consumes applied again to every later info.
    public var received: [DomainEvent] = []
    /// The events it has published: each is said once.
    public var published: [DomainEvent] = []
    /// The names of the events it announced and was refused (its module does not declare them): each said once.
    public var refused: Set<String> = []
    /// It has shown info at least once (analytics hears of a card when it appears, not on every reload).
    public var shownOnce = false
    /// Its skeleton: drawn at the start and again when a failed card is retried.
    public var skeleton: Skeleton

    /// A card of `spec`, showing `skeleton`, before its first load.
    public init(_ spec: CardSpec, skeleton: Skeleton = .drawn(nil)) { (self.spec, self.skeleton) = (spec, skeleton) }

    /// A card showing `skeleton`, before its first load.
    public init(
        id: ComponentID, module: String, consumes: Set<String> = [], refreshesOn: Set<String> = [],
        skeleton: Block? = nil, critical: Bool = false, validates: Bool = false
    ) {
        self.init(
            CardSpec(
                id: id, module: module, consumes: consumes, refreshesOn: refreshesOn, critical: critical,
                validates: validates),
            skeleton: .drawn(skeleton))
    }

    /// The component in this slot.
    public var id: ComponentID { spec.id }

    /// Where its state machine is (``StateMachine``), read off the phase and the load: loading while a load is
    /// under way (or before the first), info while shown, failed while stale or hidden.
    public var machine: Phase {
        if loading { return .loading }
        switch phase {
        case .waiting: return .loading
        case .shown: return .info
        case .stale, .hidden: return .failed
        }
    }

    /// The info it last showed, whatever it shows now (a stale card's, kept for when a hidden one goes stale).
    public var last: ShownInfo? {
        switch phase {
        case .waiting: nil
        case .shown(let shown), .stale(let shown, _, _, _): shown
        case .hidden(_, _, let last, _): last
        }
    }

    /// The info it last showed (what a deliver, a verdict and analytics are asked about).
    public var info: AnyInfo? { last?.info }

    /// The info a report gives for it: while its info is shown and settled, or kept on screen while stale; nil
    /// while a refresh is under way, waiting or hidden. The one place "info or stale" is decided.
    public var reported: ShownInfo? {
        switch phase {
        case .shown(let shown) where !loading: shown
        case .stale(let shown, _, _, _): shown
        default: nil
        }
    }

    /// What the host draws for it: its skeleton, its info's card, the kept card while stale, or (hidden) the
    /// component's card for the failure.
    public var block: Block? {
        switch phase {
        case .waiting: skeleton.block
        case .shown(let shown), .stale(let shown, _, _, _): shown.block
        case .hidden(_, let drawn, _, _): drawn
        }
    }

    /// Whether the card is on screen: everything but hidden.
    public var visible: Bool {
        if case .hidden = phase { return false }
        return true
    }

    /// It failed since it last showed info (stale or hidden): the next info shows it again.
    public var failed: Bool {
        switch phase {
        case .stale, .hidden: true
        case .waiting, .shown: false
        }
    }

    /// While stale: when the info it keeps was fresh.
    public var staleSince: Date? {
        if case .stale(let shown, _, _, _) = phase { return shown.at }
        return nil
    }

    /// Why it last failed, while stale or hidden; while waiting, why its skeleton could not be drawn, if so.
    public var reason: String? {
        switch phase {
        case .stale(_, _, let reason, _), .hidden(let reason, _, _, _): reason
        case .waiting:
            if case .failed(let reason) = skeleton { reason } else { nil }
        case .shown: nil
        }
    }
}

/// How a screen runs, fixed from its settings at the start: nothing the reducer does changes it.
public struct ScreenConfig: Sendable, Equatable {
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
    /// What a person said before the start, routed at the start.
    public let said: [DomainEvent]

    /// The parts of `settings` the reducer reads, for a screen that starts at `started`.
    public init(started: Date, settings: ScreenSettings) {
        (self.started, timeout, watch, every) = (started, settings.timeout, settings.watch, settings.every)
        (staleLimit, keepsJSON, said) = (settings.staleLimit, settings.includeInfo, settings.said)
    }
}

/// Where a person's actions on the screen stand: what they can do, the one asked for and its send, where a done
/// one leads, and what a host last asked the cards. Changed by the action reducer (ActionReducer.swift) alone.
public struct ActionState: Sendable, Equatable {
    /// What a person can do on this screen.
    public let actions: [ActionSpec]
    /// The screen's inputs (`["cart": "C100"]`): filled into the actions' words and addresses.
    public let inputs: [String: String]
    /// An action to carry out once the first loads settle (`--pay`; the host refuses it with watch).
    public var perform: ActionSpec?
    /// Where the last action asked for is; ``ActionProgress/sending(_:verdicts:)`` while a confirmed one is on its
    /// way to the backend (the one place that says so).
    public var progress: ActionProgress?
    /// The screen a finished action leads to.
    public var next: ScreenLink?
    /// The validating cards' verdicts on the action a host last asked about (``ScreenAction/ask(_:)``).
    public var asked: ActionCheck?
    /// What the action's reducer told a person while reducing the last action, in order (the dialog, the action's
    /// line): the first frame drawn after it carries them, and the next action starts with none, so nothing told is
    /// kept for the run or handed out twice. It never writes a console.
    public var told: [ActionNotice] = []
    /// The action whose dialog a person has open (told, not yet confirmed or closed): a card's change that alters
    /// the cards' answers asks again while it is.
    public var open: String?

    /// The actions of `settings`, none asked for yet.
    public init(settings: ScreenSettings) {
        (actions, inputs, perform) = (settings.actions, settings.ids, settings.perform)
    }

    /// The action `id` of this screen, if it has one.
    public func spec(_ id: String) -> ActionSpec? { actions.first { $0.id == id } }

    /// Tells a person `notice`; a dialog stays open until it is confirmed or closed.
    mutating func tell(_ notice: ActionNotice) {
        told.append(notice)
        if case .dialog(let id, _, _, _, _) = notice { open = id }
    }
}

/// What the screen does next once nothing is under way: the one place a person's `r`, an input without watch and
/// the last look after the subject finished are kept, so two of them cannot be asked at once.
public enum NextLook: Sendable, Equatable {
    /// Nothing asked: under watch, the cards due (or the next `every` round); without watch, nothing.
    case due
    /// Without watch, a person's input asked for a look: the cards due by then load once it settles.
    case followUp
    /// Under watch, a person asked for every card again (`r`): done at the next look.
    case everyCard
    /// Under watch, the loads under way are that reload: another `r` before they settle is the same one.
    case reloading
    /// Under watch, the loads under way are the last look after the screen finished: once they settle, the run is
    /// over.
    case lastLook
}

/// Where a screen's run is: running, with the events handed to cards whose answers have not come back and what its
/// next quiet moment does, or over. Loads and a send under way are the cards' and the action's own
/// (``CardState/loading``, ``ActionProgress/sending(_:verdicts:)``).
public enum ScreenLifecycle: Sendable, Equatable {
    /// The screen runs: `delivering` events are with cards that have not answered, `next` is its next look.
    case running(delivering: Int, next: NextLook)
    /// The run is over: nothing is loaded or drawn any more.
    case stopped

    /// Events handed to cards whose answers have not come back yet (none once stopped).
    public var delivering: Int {
        if case .running(let delivering, _) = self { return delivering }
        return 0
    }

    /// What the next quiet moment does (nothing once stopped).
    public var next: NextLook? {
        if case .running(_, let next) = self { return next }
        return nil
    }
}

/// A whole screen: its cards, the run's config, where its run is (``lifecycle``), its clock marks and a person's
/// actions. One value, changed by one function; nothing in it is a terminal's (what is open over a live screen is
/// the live screen's own).
public struct ScreenState: Sendable, Equatable {
    /// The cards, in layout order.
    public var cards: [CardState]
    /// How it runs.
    public let config: ScreenConfig
    /// Where its run is: running (with the deliveries under way and what its next look does) or stopped.
    public var lifecycle = ScreenLifecycle.running(delivering: 0, next: .due)
    /// A component said what the screen follows is finished (the order was delivered): the subject's state, which
    /// frames report; under watch it makes the next look the last.
    public var finished = false
    /// The next `every` round under watch (set once the first loads have settled).
    public var nextRound: Date?
    /// The wake-up last asked for, so the same one is not asked for twice.
    public var wakeAt: Date?
    /// A person's actions.
    public var action: ActionState
    /// A critical card of the definition that no module can show: the screen has failed from the start.
    public var missing: String?
    /// When the screen last settled (everything asked for had answered), on the runtime's clock: the live
    /// screen's "updated" time.
    public var settledAt: Date?

    /// A screen of `cards` that starts at `started`.
    public init(cards: [CardState], started: Date, settings: ScreenSettings) {
        self.cards = cards
        config = ScreenConfig(started: started, settings: settings)
        action = ActionState(settings: settings)
    }

    /// The run is over: nothing is loaded or drawn any more.
    public var stopped: Bool { lifecycle == .stopped }

    /// Whether no load, delivery or send is under way.
    public var quiet: Bool {
        guard lifecycle.delivering == 0 else { return false }
        if case .sending? = action.progress { return false }
        return !cards.contains { $0.loading || $0.skeleton == .asked }
    }

    /// A critical card is hidden by a failure (its retry not under way), or missing, so the screen as a whole has
    /// failed: "total: server answered HTTP 500". Nil while every critical card is shown (stale counts as shown).
    /// Decided here once: frames carry it, and the action reducer reads it.
    public var failure: String? {
        missing
            ?? cards.first { $0.spec.critical && !$0.visible && $0.machine == .failed }.map {
                "\($0.id): \($0.reason ?? "failed")"
            }
    }

    /// The screen as the outputs see it; each card's info as JSON when `encoding` (encoded now when the answers
    /// did not keep it), else as the answers kept it.
    public func frame(at now: Date, encoding: Bool = false) -> ScreenFrame {
        ScreenFrame(
            cards: cards.map { card in
                var frame = CardFrame(id: card.id, module: card.spec.module)
                frame.phase = card.machine
                frame.visible = card.visible
                frame.staleSince = card.staleSince
                frame.block = card.block
                frame.info = card.reported.flatMap { encoding ? $0.json ?? $0.info?.json() : $0.json }
                frame.reason = card.reason
                frame.settledMs = card.settledAt.map(milliseconds)
                frame.critical = card.spec.critical
                return frame
            }, elapsedMs: milliseconds(now), finished: finished, action: action.progress, next: action.next,
            failure: failure, told: action.told, settledAt: settledAt)
    }

    /// Milliseconds from the start to `date`, as traces and frames count them.
    public func milliseconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince(config.started) * 1000).rounded(.down))
    }
}
