import Core
import Foundation

/// Everything that can happen to a screen; the runtime stamps each with the time it happened.
public enum ScreenAction: Sendable, Equatable {
    /// The screen is shown: every skeleton, then the first load of the cards at `loading` (all of them on a
    /// screen; none for a skeleton preview; the validating ones for a verdict).
    case start(loading: [Int])
    /// Card `card`'s load number `generation` brought info; the answer is what the component says about it.
    case loaded(card: Int, generation: Int, CardAnswer)
    /// Card `card`'s load number `generation` failed; `drawn` is the card the component draws for the failure.
    case failed(card: Int, generation: Int, Failure, drawn: Block?)
    /// Card `card` was handed an event along `path` (the cards it came through, it last): its new answer, or
    /// nil when its info did not change.
    case consumed(card: Int, CardAnswer?, path: [ComponentID])
    /// A person's input, delivered as another squad's event would be (`preview --event`).
    case input(DomainEvent)
    /// The clock reached the wake-up the runtime asked for.
    case tick
    /// A person asked for card `card` (or, with nil, every card) to be loaded again.
    case reload(card: Int?)
    /// The run ends (the person quit, or the scope running the screen was cancelled).
    case stop
    /// A person asked for action `id`: the squads' verdicts are added up into its check, and what they said is
    /// told (a dialog asking the question when nobody vetoed).
    case act(String)
    /// A person said yes to exactly `shown`, the check action `id`'s dialog showed: it is sent only if the cards
    /// still say that, else the question is asked again.
    case confirm(String, shown: ActionCheck)
    /// A person closed action `id`'s dialog without saying yes: a card's change no longer asks again.
    case close(String)
    /// The backend answered action `id`'s send (or could not): done, failed, or unknown (it may have gone through).
    case sent(String, SendOutcome)
    /// A host asked the validating cards about `action` without a person (`cancel`, a squad's harness): each card's
    /// stored verdict, or its answer now for an action the screen's settings do not name, kept in
    /// ``ScreenState/asked`` with the squads' analytics.
    case ask(UserAction)
    /// The components' answers to an ``ScreenEffect/validate(_:cards:)``, by card (nil: it gave none).
    case validated(UserAction, [Int: Verdict?])
    /// Card `card`'s worker drew its skeleton (``ScreenEffect/sketch(card:)``), or its code failed doing so.
    case sketched(card: Int, Result<Block?, Failure>)
}

/// What a squad's ``Tracking`` hears of its card.
public enum CardMoment: Sendable, Equatable {
    /// The card appeared (first info, or info after a failure).
    case shown
    /// A load failed.
    case hidden(Failure)
    /// The card stays on screen, stale, with info that was fresh at `since`.
    case stale(since: Date)
    /// It was asked about action `id` (its stored verdict is what it said).
    case verdict(UserAction)
}

/// What the runtime asks the world to do after an action; the executor runs it and feeds the result back.
public enum ScreenEffect: Sendable, Equatable {
    /// Load card `card` as load number `generation`, giving up after `within`.
    case load(card: Int, generation: Int, within: Duration)
    /// Stop load number `generation` of card `card`; its answer, if any, is dropped.
    case cancel(card: Int, generation: Int)
    /// Send ``ScreenAction/tick`` at this time on the runtime's clock (replaces the previous wake-up).
    case wake(at: Date)
    /// Hand `event` to card `card` (answer with ``ScreenAction/consumed(card:_:path:)``).
    case deliver(DomainEvent, to: Int, path: [ComponentID])
    /// Tell card `card`'s squad about a moment of its card (analytics).
    case track(card: Int, CardMoment)
    /// Hand the outputs the screen's frame for this moment.
    case draw(FrameMoment)
    /// Card `card`'s state machine moved from `from` to `to`, as ``StateMachine`` allows (a `--trace` line).
    case moved(card: Int, from: Phase, to: Phase)
    /// A line for `--trace`.
    case trace(String)
    /// A line a person should see on stderr (a refused event cycle).
    case diagnostic(String)
    /// The run is over.
    case finish
    /// POST a confirmed action, once, under the key its attempt keeps (answer with ``ScreenAction/sent(_:_:)``).
    case send(ActionRequest)
    /// The backend took this request under its attempt's key: its ledger keeps the answer with the attempt, so
    /// the same request again is answered from it.
    case settle(ActionRequest, KeptAnswer)
    /// This run's send of the request failed or was refused: its ledger forgets the attempt if this run made it.
    case abandon(ActionRequest)
    /// Ask the components of `cards` about `action` given their info (answer with
    /// ``ScreenAction/validated(_:_:)``).
    case validate(UserAction, cards: [Int])
    /// Ask card `card`'s worker for its skeleton (answer with ``ScreenAction/sketched(card:_:)``).
    case sketch(card: Int)

    /// Whether it only words what happened for `--trace` (a ``trace(_:)`` line): behaviour never depends on it, so
    /// a store test leaves these out and one test pins their wording.
    public var isTrace: Bool {
        if case .trace = self { return true }
        return false
    }
}

extension ScreenState {
    /// The one function that changes a screen: applies `action`, which happened at `now`, and returns what the
    /// world must do about it, in order.
    public mutating func reduce(_ action: ScreenAction, at now: Date) -> [ScreenEffect] {
        guard !stopped else { return [] }
        // What the last action told was handed out with its frames (every action that tells a person draws, or
        // stops and its last frame carries it): this one starts with nothing told.
        self.action.told.removeAll()
        var effects: [ScreenEffect] = []
        switch action {
        case .start(let loading):
            effects = cards.map { .trace("\($0.id): start → loading") } + [.draw(.first)]
            effects += cards.indices.filter { cards[$0].skeleton == .asked }.map { .sketch(card: $0) }
            for event in config.said { route(event, path: ["input"], now, &effects, starting: loading) }
            for index in loading where cards.indices.contains(index) { begin(index, &effects) }
            settleIfQuiet(now, &effects)
        case .loaded(let index, let generation, let answer):
            guard current(index, generation, &effects) else { return effects }
            receive(answer, index, now, path: [cards[index].id], fromLoad: true, &effects)
            askAgainIfChanged(now, &effects)
            effects.append(.draw(.changed))
            settleIfQuiet(now, &effects)
        case .failed(let index, let generation, let failure, let drawn):
            guard current(index, generation, &effects) else { return effects }
            fail(failure, drawn: drawn, index, now, &effects)
            askAgainIfChanged(now, &effects)
            effects.append(.draw(.changed))
            settleIfQuiet(now, &effects)
        case .consumed(let index, let answer, let path):
            delivered()
            if let answer, cards.indices.contains(index), cards[index].machine == .info {
                receive(answer, index, now, path: path, fromLoad: false, &effects)
                askAgainIfChanged(now, &effects)
                effects.append(.draw(.changed))
            }
            settleIfQuiet(now, &effects)
        case .input(let event):
            followUpUnlessWatching()
            route(event, path: ["input"], now, &effects)
            settleIfQuiet(now, &effects)
        case .tick:
            wakeAt = nil
            if config.watch && quiet { look(now, &effects) }
        case .reload(nil):
            reloadEverything(now, &effects)
        case .act(let id):
            // A person is offered the screen's own actions only.
            guard let spec = self.action.spec(id) else { return effects }
            act(spec, confirmed: false, now, &effects)
            effects.append(.draw(.changed))
        case .confirm(let id, let shown):
            confirm(id, shown: shown, now, &effects)
            if stopped { return effects }
            effects.append(.draw(.changed))
        case .close(let id):
            if self.action.open == id { self.action.open = nil }
        case .reload(let index?):
            guard cards.indices.contains(index) else { return effects }
            followUpUnlessWatching()
            begin(index, superseding: true, &effects)
        case .stop:
            stop(&effects)
        case .sent(let id, let result):
            sent(id, result, &effects)
            if stopped { return effects }
            effects.append(.draw(.changed))
            settleIfQuiet(now, &effects)
        case .ask(let asked):
            let unstored = cards.indices.filter {
                cards[$0].spec.validates && cards[$0].machine == .info && cards[$0].verdicts[asked] == nil
            }
            if unstored.isEmpty { answer(asked, &effects) } else { effects.append(.validate(asked, cards: unstored)) }
        case .sketched(let index, let skeleton):
            guard cards.indices.contains(index) else { return effects }
            guard cards[index].skeleton == .asked else { return effects }
            switch skeleton {
            case .success(let block): cards[index].skeleton = .drawn(block)
            case .failure(let failure):
                cards[index].skeleton = .failed(failure.reason)
                effects.append(.trace("\(cards[index].id): no skeleton (\(failure.reason))"))
            }
            if case .waiting = cards[index].phase { effects.append(.draw(.changed)) }
            settleIfQuiet(now, &effects)
        case .validated(let asked, let verdicts):
            for (index, verdict) in verdicts where cards.indices.contains(index) {
                cards[index].verdicts[asked] = verdict
            }
            answer(asked, &effects)
        }
        return effects
    }

    /// Whether load `generation` of card `index` is the one that counts; a late answer is dropped. The load stays
    /// under way until its answer is taken (``receive`` or ``fail``), so the move is made from `loading`.
    private mutating func current(_ index: Int, _ generation: Int, _ effects: inout [ScreenEffect]) -> Bool {
        guard cards.indices.contains(index), cards[index].generation == generation, cards[index].loading else {
            let id = cards.indices.contains(index) ? cards[index].id.rawValue : "card #\(index)"
            effects.append(.trace("\(id): dropped a stale answer (load #\(generation))"))
            return false
        }
        return true
    }

    /// Starts a load by the legal way for the card's phase: the first load, a refresh of shown info (the card
    /// stays on screen until the answer), a retry after a failure (the skeleton again), or, when `superseding`, a
    /// restart of a load under way (a person's reload: that load's answer predates their input, so it is cancelled
    /// and dropped by its generation). Without `superseding` a card already loading is left to its load.
    private mutating func begin(_ index: Int, superseding: Bool = false, _ effects: inout [ScreenEffect]) {
        if cards[index].loading {
            guard superseding, move(index, .restart, &effects) else { return }
            effects.append(.cancel(card: index, generation: cards[index].generation))
        } else if cards[index].machine != .loading {
            let from = cards[index].machine
            guard move(index, from == .failed ? .retry : .refresh, &effects) else { return }
            // A retry draws the skeleton again: a hidden card stays hidden, a stale one keeps its info on screen.
            let skeleton = cards[index].skeleton.block
            switch cards[index].phase {
            case .stale(let last, let since, let reason, _):
                cards[index].phase = .stale(last, failingSince: since, reason: reason, drawn: skeleton)
            case .hidden(let reason, _, let last, let since):
                cards[index].phase = .hidden(reason: reason, drawn: skeleton, last: last, failingSince: since)
            case .waiting, .shown: break
            }
        }
        cards[index].generation += 1
        cards[index].loading = true
        effects.append(.load(card: index, generation: cards[index].generation, within: config.timeout))
    }

    /// Whether card `index` may move by `transition` as the table says (``StateMachine``), asked before every
    /// change of its phase or load after the start; the caller then makes the change, which the card's
    /// ``CardState/machine`` reads back as the table's next phase. A move the table refuses is a diagnostic (a
    /// store test's unexpected effect, a harness's issue) and changes nothing.
    private mutating func move(_ index: Int, _ transition: Transition, _ effects: inout [ScreenEffect]) -> Bool {
        let from = cards[index].machine
        switch StateMachine.next(after: from, on: transition) {
        case .success(let to):
            effects.append(.moved(card: index, from: from, to: to))
            return true
        case .failure(let illegal):
            effects.append(.diagnostic("\(cards[index].id): \(illegal)"))
            return false
        }
    }

    private mutating func receive(
        _ answer: CardAnswer, _ index: Int, _ now: Date, path: [ComponentID], fromLoad: Bool,
        _ effects: inout [ScreenEffect]
    ) {
        let id = cards[index].id
        guard move(index, .receive, &effects) else { return }
        let wasFailed = cards[index].failed
        cards[index].phase = .shown(ShownInfo(info: answer.info, json: answer.json, block: answer.block, at: now))
        cards[index].loading = false
        (cards[index].verdicts, cards[index].settledAt) = (answer.verdicts, now)
        if fromLoad && (!cards[index].shownOnce || wasFailed) { effects.append(.track(card: index, .shown)) }
        cards[index].shownOnce = cards[index].shownOnce || fromLoad
        if wasFailed { effects.append(.trace("\(id): show")) }
        if answer.finished && !finished {
            finished = true
            effects.append(.trace("\(id): finished"))
        }
        if let after = answer.refreshAfter { ask(index, after: after, now, &effects) }
        // An announcement its module does not declare is refused: said once per event, never routed.
        for event in answer.refused where !cards[index].refused.contains(event.name) {
            cards[index].refused.insert(event.name)
            let line = "\(id): announced \(event.name), which its module does not declare; refused"
            effects.append(.diagnostic(line))
            effects.append(.trace(line))
        }
        let new = answer.events.filter { !cards[index].published.contains($0) }
        cards[index].published += new
        for event in new { route(event, path: path, now, &effects) }
    }

    private mutating func ask(_ index: Int, after: Duration, _ now: Date, _ effects: inout [ScreenEffect]) {
        let when = now.addingTimeInterval(after.seconds)
        cards[index].due = min(cards[index].due ?? when, when)
        effects.append(.trace("\(cards[index].id): asks for a refresh in \(after.seconds)s"))
    }

    /// Hands `event`, published by the last card on `path`, to every card that hears it, in screen order; a card
    /// already on the path would close a loop, so it is refused. The cards `starting` are about to load first.
    mutating func route(
        _ event: DomainEvent, path: [ComponentID], _ now: Date, _ effects: inout [ScreenEffect],
        starting: [Int] = []
    ) {
        for target in cards.indices where cards[target].spec.hears.contains(event.name) && cards[target].id != path.last
        {
            let id = cards[target].id
            guard !path.contains(id) else {
                effects.append(.diagnostic(EventCycle(loop: path + [id], event: event).description))
                continue
            }
            effects.append(.trace("event \(event): \(path.last.map(\.rawValue) ?? "input") → \(id)"))
            // Kept in the state: consumed into every later info, and in the context of every later load.
            cards[target].received.removeAll { $0.name == event.name }
            cards[target].received.append(event)
            // A card whose first load is starting needs no second one: that load reads the event.
            if cards[target].spec.refreshesOn.contains(event.name), !starting.contains(target) {
                ask(target, after: .zero, now, &effects)
            }
            guard cards[target].spec.consumes.contains(event.name) else { continue }
            if cards[target].machine == .info, case .running(let delivering, let next) = lifecycle {
                lifecycle = .running(delivering: delivering + 1, next: next)
                effects.append(.deliver(event, to: target, path: path + [id]))
            }
        }
    }

    private mutating func fail(
        _ failure: Failure, drawn: Block?, _ index: Int, _ now: Date, _ effects: inout [ScreenEffect]
    ) {
        let id = cards[index].id
        guard move(index, .fail, &effects) else { return }
        cards[index].loading = false
        cards[index].settledAt = now
        let (last, wasStale) = (cards[index].last, cards[index].staleSince != nil)
        var failingSince: Date?
        switch cards[index].phase {
        case .stale(_, let since, _, _): failingSince = since
        case .hidden(_, _, _, let since): failingSince = since
        case .waiting, .shown: break
        }
        if let last, last.block != nil, failure.transient, config.staleLimit > .zero {
            let since = failingSince ?? now
            failingSince = since
            if now.timeIntervalSince(since) <= config.staleLimit.seconds {
                cards[index].phase = .stale(last, failingSince: since, reason: failure.reason, drawn: drawn)
                let fresh = ISO8601DateFormatter().string(from: last.at)
                effects.append(.trace("\(id): stale, keeping the card from \(fresh) (\(failure.reason))"))
                effects.append(.track(card: index, .hidden(failure)))
                if !wasStale { effects.append(.track(card: index, .stale(since: last.at))) }
                return
            }
        }
        cards[index].phase = .hidden(reason: failure.reason, drawn: drawn, last: last, failingSince: failingSince)
        effects.append(.trace("\(id): hide (\(failure.reason))"))
        effects.append(.track(card: index, .hidden(failure)))
    }

    /// A person's `r` under watch: every card again, now or once the loads under way have answered. An `r` while
    /// one is asked for or under way is that same reload, so a pasted burst of them is one; during the last look
    /// the run ends after it anyway. Without watch nothing looks again, so it asks nothing.
    mutating func reloadEverything(_ now: Date, _ effects: inout [ScreenEffect]) {
        guard config.watch, case .running(let delivering, .due) = lifecycle else { return }
        lifecycle = .running(delivering: delivering, next: .everyCard)
        if quiet { look(now, &effects) }
    }

    /// Without watch, a person's input (or reload) asks for a look once the screen settles; under watch the rounds
    /// look anyway.
    private mutating func followUpUnlessWatching() {
        guard !config.watch, case .running(let delivering, _) = lifecycle else { return }
        lifecycle = .running(delivering: delivering, next: .followUp)
    }

    /// An event handed to a card has been answered.
    private mutating func delivered() {
        guard case .running(let delivering, let next) = lifecycle else { return }
        lifecycle = .running(delivering: max(0, delivering - 1), next: next)
    }

    /// What the next quiet moment does, from now on.
    private mutating func next(_ next: NextLook) {
        guard case .running(let delivering, _) = lifecycle else { return }
        lifecycle = .running(delivering: delivering, next: next)
    }

    /// Once no load or delivery is under way: the screen has settled. Under watch it looks at what is due next
    /// (or ends, after the last look); without watch, a person's input gets the looks the cards asked for.
    mutating func settleIfQuiet(_ now: Date, _ effects: inout [ScreenEffect]) {
        guard quiet else { return }
        settledAt = now
        effects.append(.draw(.settled))
        if lifecycle.next == .reloading { next(.due) }
        if config.watch {
            if nextRound == nil { nextRound = now.addingTimeInterval(config.every.seconds) }
            if lifecycle.next == .lastLook { return stop(&effects) }
            look(now, &effects)
        } else if lifecycle.next == .followUp {
            next(.due)
            for index in cards.indices where cards[index].due.map({ $0 <= now }) ?? false {
                cards[index].due = nil
                begin(index, &effects)
            }
            if !quiet { return }
        }
        if let spec = action.perform {
            action.perform = nil
            act(spec, confirmed: true, now, &effects)
            effects.append(.draw(.changed))
        }
    }

    /// Under watch, with nothing under way: hides stale cards past their limit, then loads the cards that asked
    /// for a look by now (every card on an `every` round or a person's `r`), or sleeps until the next such time.
    /// Once the screen is finished, the cards due now get one last look and the run ends.
    private mutating func look(_ now: Date, _ effects: inout [ScreenEffect]) {
        let finishing = finished
        var expired = false
        for index in cards.indices {
            guard case .stale(let last, let since, let reason, let drawn) = cards[index].phase,
                now.timeIntervalSince(since) > config.staleLimit.seconds
            else { continue }
            cards[index].phase = .hidden(reason: reason, drawn: drawn, last: last, failingSince: since)
            effects.append(
                .trace("\(cards[index].id): hide (stale for longer than \(config.staleLimit.seconds)s)"))
            expired = true
        }
        if expired {
            settledAt = now
            effects.append(.draw(.settled))
        }
        var chosen = cards.indices.filter { cards[$0].due.map { $0 <= now } ?? false }
        for index in chosen { cards[index].due = nil }
        let everyCard = lifecycle.next == .everyCard
        if everyCard || (!finishing && nextRound.map { now >= $0 } ?? false) {
            chosen = Array(cards.indices)
            nextRound = now.addingTimeInterval(config.every.seconds)
        }
        next(chosen.isEmpty ? .due : finishing ? .lastLook : everyCard ? .reloading : .due)
        guard chosen.isEmpty else {
            for index in chosen { begin(index, &effects) }
            return
        }
        if finishing { return stop(&effects) }
        var times = cards.compactMap(\.due) + [nextRound].compactMap { $0 }
        times += cards.compactMap { card in
            guard case .stale(_, let since, _, _) = card.phase else { return nil }
            return since.addingTimeInterval(config.staleLimit.seconds + 0.001)
        }
        guard let next = times.min(), next != wakeAt else { return }
        wakeAt = next
        effects.append(.wake(at: next))
    }

    mutating func stop(_ effects: inout [ScreenEffect]) {
        // The loads under way are cancelled; each card is left as it is (a card cut short while loading stays
        // loading: its last frame says so), and nothing is reduced any more.
        for index in cards.indices where cards[index].loading {
            effects.append(.cancel(card: index, generation: cards[index].generation))
        }
        lifecycle = .stopped
        effects.append(.finish)
    }
}
