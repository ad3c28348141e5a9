import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A screen's actions and critical cards on the test store: every effect asserted, time moved only by the test.
/// What an action tells a person is in the state only until the next action (its frames carried it), so each step
/// that tells sets ``ActionState/told`` afresh.
@Suite struct ActionReducerTests {
    typealias Rules = ScreenReducerTests
    static let pay: ActionSpec = {
        var pay = ActionSpec(id: "pay", key: "P", label: "Pay")
        (pay.send, pay.question, pay.then) = ("carts/{cart}/pay", "Pay {amount} with {method}?", "tracking")
        (pay.done, pay.result) = ("Paid {amount} with {method}: order {order}", "paid")
        pay.vetoed = "Checkout {cart} can't be paid ({vetoes})."
        pay.uncertain = "The payment may have gone through: check before paying again."
        return pay
    }()
    static let method = Verdict.confirm("with Visa", facts: ["method": "Visa", "method_id": .text("visa4242")])
    static let amount = Verdict.confirm(
        "SAR 45.45", facts: ["amount": "SAR 45.45", "amount_minor": .integer(4545), "currency": .text("SAR")])
    /// Both cards allow paying: the verdicts a send goes ahead on, kept to its end.
    static let allowed = ActionCheck(
        action: "pay",
        verdicts: [
            ActionVerdict(id: "method", verdict: method, reason: nil),
            ActionVerdict(id: "total", verdict: amount, reason: nil),
        ], inputs: ["cart": "C100"])

    /// A validating card whose answer says `verdict` about paying.
    static func answer(_ title: String, _ verdict: Verdict) -> CardAnswer {
        var answer = Rules.answer(title)
        answer.verdicts = ["pay": verdict]
        return answer
    }

    static func validating(_ id: ComponentID, critical: Bool = false) -> CardState {
        CardState(id: id, module: "M", skeleton: Rules.skeleton, critical: critical, validates: true)
    }

    /// Starts a screen of two cards named `first` and `second`: both load at once, the first frame is drawn.
    static func start(_ store: Rules.Store, _ first: String, _ second: String) {
        store.send(
            .start(loading: [0, 1]),
            effects: [
                .draw(.first),
                .load(card: 0, generation: 1, within: .seconds(5)), .load(card: 1, generation: 1, within: .seconds(5)),
            ]
        ) { screen in
            for index in 0..<2 { (screen.cards[index].generation, screen.cards[index].loading) = (1, true) }
        }
    }

    /// A checkout of two validating cards (the second critical), loaded with these verdicts, paying on its own
    /// once loaded when `perform`.
    static func checkout(_ first: Verdict, _ second: Verdict, perform: Bool = false) -> Rules.Store {
        let store = Rules.store(
            [validating("method"), validating("total", critical: true)], actions: [pay],
            perform: perform ? "pay" : nil, ids: ["cart": "C100"])
        start(store, "method", "total")
        store.send(
            .loaded(card: 0, generation: 1, answer("method", first)),
            effects: [.moved(card: 0, from: .loading, to: .info), .track(card: 0, .shown), .draw(.changed)]
        ) { screen in
            Rules.shows("method", 0, at: Rules.start)(&screen)
            screen.cards[0].verdicts = ["pay": first]
        }
        return store
    }

    /// The request the allowed checkout sends: its intent (typed facts and the cart), with its words beside.
    static func request(_ check: ActionCheck = allowed) throws -> ActionRequest {
        ActionRequest(
            action: "pay", endpoint: try Endpoint("carts", "C100", "pay"), intent: check.intent, words: check.words,
            subject: check.inputs)
    }

    /// Everything the allowed checkout said, by name: its words, and the values it sent.
    static let said = [
        "cart": "C100", "method": "Visa", "method_id": "visa4242", "amount": "SAR 45.45", "amount_minor": "4545",
        "currency": "SAR",
    ]

    @Test func payingOnItsOwnSendsTheFactsOnceWithTheKeyAndFollowsTheAnswer() throws {
        let store = Self.checkout(Self.method, Self.amount, perform: true)
        let request = try Self.request()
        store.send(
            .loaded(card: 1, generation: 1, Self.answer("total", Self.amount)),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
                .track(card: 0, .verdict("pay")), .track(card: 1, .verdict("pay")),
                .send(request), .draw(.changed),
            ]
        ) { screen in
            screen.settledAt = store.now
            Rules.shows("total", 1, at: Rules.start)(&screen)
            screen.cards[1].verdicts = ["pay": Self.amount]
            (screen.action.perform, screen.action.progress) = (nil, .sending(request, verdicts: Self.allowed.verdicts))
            screen.action.told = []
            screen.action.tell(.line("Pay: sending…"))
        }
        #expect(!store.state.quiet, "a send under way keeps the screen from settling")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"amount_minor":4545,"cart":"C100","currency":"SAR","method_id":"visa4242"}"#)
        let line = "Paid SAR 45.45 with Visa: order 4242"
        var fields = Self.said
        fields["order"] = "4242"
        store.send(
            .sent("pay", .done(["order": "4242"], unread: nil)),
            effects: [
                .settle(request, KeptAnswer(fields: ["order": "4242"], unread: nil)),
                .finish,
            ]
        ) { screen in
            screen.action.progress = .done(
                action: "pay", fields: fields, line: line, result: "paid", verdicts: Self.allowed.verdicts)
            screen.action.told = []
            screen.action.tell(.line(line))
            screen.action.next = ScreenLink(screen: "tracking", inputs: fields)
            screen.lifecycle = .stopped
        }
    }

    /// A checkout paying on its own, its send under way: the store and the request sent.
    static func sending() throws -> (Rules.Store, ActionRequest) {
        let store = checkout(method, amount, perform: true)
        let request = try request()
        store.send(
            .loaded(card: 1, generation: 1, answer("total", amount)),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
                .track(card: 0, .verdict("pay")), .track(card: 1, .verdict("pay")),
                .send(request), .draw(.changed),
            ]
        ) { screen in
            screen.settledAt = store.now
            Rules.shows("total", 1, at: Rules.start)(&screen)
            screen.cards[1].verdicts = ["pay": amount]
            (screen.action.perform, screen.action.progress) = (nil, .sending(request, verdicts: allowed.verdicts))
            screen.action.told = []
            screen.action.tell(.line("Pay: sending…"))
        }
        return (store, request)
    }

    /// Sent, then no answer (a dropped connection, a timeout, a 5xx, a redirect): the payment may have gone
    /// through. The screen says so in the action's words, keeps the verdicts and the facts sent, follows no
    /// screen, settles, and sends nothing again; it is never "failed".
    @Test func anUnknownOutcomeSaysItMayHaveGoneThroughAndIsNeverAFailure() throws {
        let (store, request) = try Self.sending()
        let reason = "carts/C100/pay: Empty reply from server after the request was sent"
        let line = "The payment may have gone through: check before paying again."
        store.send(
            .sent("pay", .unknown(reason)),
            effects: [.draw(.changed), .draw(.settled)]
        ) { screen in
            screen.settledAt = store.now
            screen.action.progress = .unknown(
                action: "pay", reason: reason, line: line, facts: request.sent, verdicts: Self.allowed.verdicts)
            screen.action.told = []
            screen.action.tell(.line("\(line) (\(reason))"))
        }
        #expect(store.state.action.next == nil && store.state.quiet)
    }

    /// The backend took it (a 2xx) and its answer cannot be read: done, saying so and what was sent; with no
    /// answer there is no new order to follow, so the run stays on the screen instead of leaving for one.
    @Test func aTakenPaymentWhoseAnswerCannotBeReadIsDoneAndSaysWhatWasSent() throws {
        let (store, request) = try Self.sending()
        let unread = "carts/C100/pay: the answer is empty"
        let line =
            "Pay: done, but the answer could not be read (\(unread)); sent: amount SAR 45.45, amount_minor 4545, "
            + "cart C100, currency SAR, method Visa, method_id visa4242"
        store.send(
            .sent("pay", .done([:], unread: unread)),
            effects: [
                .settle(request, KeptAnswer(fields: [:], unread: unread)), .draw(.changed),
                .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            screen.action.progress = .done(
                action: "pay", fields: Self.said, line: line, result: "paid", verdicts: Self.allowed.verdicts,
                unread: unread)
            screen.action.told = []
            screen.action.tell(.line(line))
        }
        #expect(store.state.action.next == nil)
    }

    @Test func aVetoListsTheCardsAndSendsNothing() {
        let store = Self.checkout(.veto("choose how to pay"), Self.amount, perform: true)
        let check = ActionCheck(
            action: "pay",
            verdicts: [
                ActionVerdict(id: "method", verdict: .veto("choose how to pay"), reason: nil),
                ActionVerdict(id: "total", verdict: Self.amount, reason: nil),
            ], inputs: ["cart": "C100"])
        store.send(
            .loaded(card: 1, generation: 1, Self.answer("total", Self.amount)),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
                .track(card: 0, .verdict("pay")), .track(card: 1, .verdict("pay")),
                .draw(.changed),
            ]
        ) { screen in
            screen.settledAt = store.now
            Rules.shows("total", 1, at: Rules.start)(&screen)
            screen.cards[1].verdicts = ["pay": Self.amount]
            screen.action.perform = nil
            screen.action.progress = .checked(check, summary: "Checkout C100 can't be paid (1 veto).")
            screen.action.told = [
                .dialog(
                    id: "pay", title: "Pay",
                    lines: [
                        "method: veto: choose how to pay", "total: ok: SAR 45.45",
                        "Checkout C100 can't be paid (1 veto).",
                    ], question: nil, check: check)
            ]
            // `--pay`'s answer is its report, never a question left open.
            screen.action.open = nil
        }
        #expect(store.state.quiet)
    }

    @Test func onTheLiveScreenTheKeyAsksAndOnlyYesSendsAndAFailedSendIsNotRetried() throws {
        let store = Self.checkout(Self.method, Self.amount)
        store.send(
            .loaded(card: 1, generation: 1, Self.answer("total", Self.amount)),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            Rules.shows("total", 1, at: Rules.start)(&screen)
            screen.cards[1].verdicts = ["pay": Self.amount]
        }
        let verdicts: [ScreenEffect] = [.track(card: 0, .verdict("pay")), .track(card: 1, .verdict("pay"))]
        store.send(.act("pay"), effects: verdicts + [.draw(.changed)]) {
            screen in
            screen.action.progress = .checked(Self.allowed, summary: "Pay: nobody objects.")
            screen.action.told = []
            screen.action.tell(
                .dialog(
                    id: "pay", title: "Pay",
                    lines: ["method: ok: with Visa", "total: ok: SAR 45.45", "Pay: nobody objects."],
                    question: "Pay SAR 45.45 with Visa?", check: Self.allowed))
        }
        #expect(store.state.action.open == "pay", "its dialog is open")
        let request = try Self.request()
        store.send(
            .confirm("pay", shown: Self.allowed),
            effects: [.send(request), .draw(.changed)]
        ) { screen in
            screen.action.open = nil
            screen.action.progress = .sending(request, verdicts: Self.allowed.verdicts)
            screen.action.told = []
            screen.action.tell(.line("Pay: sending…"))
        }
        // Asked again while it is sending: nothing new is told, and nothing is sent twice.
        store.send(.act("pay"), effects: [.draw(.changed)]) { $0.action.told = [] }
        let refused = "carts/C100/pay: server answered HTTP 402: refused, nothing was done"
        store.send(
            .sent("pay", .failed(refused)),
            effects: [.abandon(request), .draw(.changed), .draw(.settled)]
        ) { screen in
            screen.settledAt = store.now
            screen.action.progress = .failed(action: "pay", reason: refused, verdicts: Self.allowed.verdicts)
            screen.action.told = []
            screen.action.tell(.line("Pay failed: \(refused)"))
        }
    }

    /// A checkout loaded with `method` and `amount` whose `P` dialog is open, asking "Pay AMOUNT with Visa?".
    static func asking(_ amount: String) -> Rules.Store {
        let total = Verdict.confirm(amount, facts: ["amount": .words(amount)])
        let store = Self.checkout(Self.method, total)
        store.send(
            .loaded(card: 1, generation: 1, Self.answer("total", total)),
            effects: [
                .moved(card: 1, from: .loading, to: .info), .track(card: 1, .shown), .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            Rules.shows("total", 1, at: Rules.start)(&screen)
            screen.cards[1].verdicts = ["pay": total]
        }
        store.send(.act("pay"), effects: Self.asked) { screen in
            screen.action.progress = .checked(Self.check(total), summary: "Pay: nobody objects.")
            screen.action.told = []
            screen.action.tell(Self.dialog(amount, total))
        }
        return store
    }

    /// What asking about paying does on the allowed checkout: both squads' verdicts heard, the check traced, drawn.
    static let asked: [ScreenEffect] = [
        .track(card: 0, .verdict("pay")), .track(card: 1, .verdict("pay")),
        .draw(.changed),
    ]

    /// The dialog that asks to pay `amount` (the total card's verdict `total`).
    static func dialog(_ amount: String, _ total: Verdict) -> ActionNotice {
        .dialog(
            id: "pay", title: "Pay", lines: ["method: ok: with Visa", "total: ok: \(amount)", "Pay: nobody objects."],
            question: "Pay \(amount) with Visa?", check: check(total))
    }

    static func check(_ total: Verdict) -> ActionCheck {
        ActionCheck(
            action: "pay",
            verdicts: [
                ActionVerdict(id: "method", verdict: Self.method, reason: nil),
                ActionVerdict(id: "total", verdict: total, reason: nil),
            ], inputs: ["cart": "C100"])
    }

    @Test func aPriceChangeUnderTheOpenQuestionAsksAgainAndYesSendsWhatWasShown() throws {
        let store = Self.asking("SAR 50.50")
        // The total reloads (a promo lookup finishing, a price change) while the question is open.
        store.send(
            .reload(card: 1),
            effects: [.moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5))]
        ) {
            screen in
            (screen.cards[1].generation, screen.cards[1].loading) = (2, true)
            (screen.lifecycle, screen.action.told) = (.running(delivering: 0, next: .followUp), [])
        }
        let dearer = Verdict.confirm("SAR 10,009.00", facts: ["amount": "SAR 10,009.00"])
        store.send(
            .loaded(card: 1, generation: 2, Self.answer("total", dearer)),
            effects: [
                .moved(card: 1, from: .loading, to: .info),
                .track(card: 0, .verdict("pay")), .track(card: 1, .verdict("pay")),
                .draw(.changed), .draw(.settled),
            ]
        ) { screen in
            screen.settledAt = store.now
            (screen.cards[1].loading, screen.cards[1].verdicts) = (false, ["pay": dearer])
            screen.lifecycle = .running(delivering: 0, next: .due)
            screen.action.progress = .checked(Self.check(dearer), summary: "Pay: nobody objects.")
            screen.action.told = []
            screen.action.tell(Self.dialog("SAR 10,009.00", dearer))
        }
        // A yes to the amount first shown (the person had not seen the new one yet) sends nothing: it asks again.
        let first = Self.check(.confirm("SAR 50.50", facts: ["amount": .words("SAR 50.50")]))
        store.send(
            .confirm("pay", shown: first),
            effects: [] + Self.asked
        ) { screen in
            screen.action.told = []
            screen.action.tell(Self.dialog("SAR 10,009.00", dearer))
        }
        #expect(store.state.quiet, "a yes to the old amount sends nothing")
        let request = try Self.request(Self.check(dearer))
        store.send(
            .confirm("pay", shown: Self.check(dearer)),
            effects: [.send(request), .draw(.changed)]
        ) { screen in
            screen.action.open = nil
            screen.action.progress = .sending(request, verdicts: Self.check(dearer).verdicts)
            screen.action.told = []
            screen.action.tell(.line("Pay: sending…"))
        }
    }

    /// Closed without a yes, the dialog is no longer open: a price change under it asks nothing again.
    @Test func aClosedDialogIsNotAskedAgain() {
        let store = Self.asking("SAR 50.50")
        store.send(.close("pay"), effects: []) { ($0.action.open, $0.action.told) = (nil, []) }
        store.send(
            .reload(card: 1),
            effects: [.moved(card: 1, from: .info, to: .loading), .load(card: 1, generation: 2, within: .seconds(5))]
        ) { screen in
            (screen.cards[1].generation, screen.cards[1].loading) = (2, true)
            screen.lifecycle = .running(delivering: 0, next: .followUp)
        }
        let dearer = Verdict.confirm("SAR 10,009.00", facts: ["amount": "SAR 10,009.00"])
        store.send(
            .loaded(card: 1, generation: 2, Self.answer("total", dearer)),
            effects: [.moved(card: 1, from: .loading, to: .info), .draw(.changed), .draw(.settled)]
        ) { screen in
            screen.settledAt = store.now
            (screen.cards[1].loading, screen.cards[1].verdicts) = (false, ["pay": dearer])
            screen.lifecycle = .running(delivering: 0, next: .due)
        }
    }

    @Test func aYesAfterTheCardsChangedButBeforeTheScreenSaidSoAsksAgain() {
        // The dialog is drawn, then a card changes in a way the re-ask hook does not see before the key (its
        // state edited directly, as any future path might): `y` compares and asks again instead of sending.
        let store = Self.asking("SAR 50.50")
        var state = store.state
        let dearer = Verdict.confirm("SAR 60.00", facts: ["amount": "SAR 60.00"])
        state.cards[1].verdicts = ["pay": dearer]
        let shown = Self.check(.confirm("SAR 50.50", facts: ["amount": .words("SAR 50.50")]))
        let effects = state.reduce(.confirm("pay", shown: shown), at: Rules.start)
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        #expect(effects.contains(.trace("action pay: the cards changed before the answer; asking again")))
        #expect(state.action.told.last == Self.dialog("SAR 60.00", dearer) && state.action.open == "pay")
    }

    @Test(arguments: [true, false])
    func anActionWhoseQuestionNoCardCanFillSendsNothingOnEitherPath(perform: Bool) {
        // Only the method card answers: nobody gives the amount the question (and the payment) needs.
        let store = Rules.store(
            [Self.validating("method")], actions: [Self.pay], perform: perform ? "pay" : nil, ids: ["cart": "C100"])
        store.send(
            .start(loading: [0]),
            effects: [
                .draw(.first), .load(card: 0, generation: 1, within: .seconds(5)),
            ]
        ) { screen in (screen.cards[0].generation, screen.cards[0].loading) = (1, true) }
        var state = store.state
        var effects = state.reduce(.loaded(card: 0, generation: 1, Self.answer("method", Self.method)), at: Rules.start)
        if !perform { effects += state.reduce(.act("pay"), at: Rules.start) }
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        #expect(
            state.action.progress
                == .failed(
                    action: "pay", reason: "no card gave what 'Pay {amount} with {method}?' needs; nothing was sent",
                    verdicts: [ActionVerdict(id: "method", verdict: Self.method, reason: nil)]))
        guard case .dialog(let id, let title, let lines, let question, _)? = state.action.told.last else {
            Issue.record("no dialog was told: \(state.action.told)")
            return
        }
        #expect(id == "pay" && title == "Pay" && question == nil)
        #expect(lines == ["method: ok: with Visa", "Pay: nobody objects."])
    }

    /// An amount a JSON body could carry only rounded is never sent: the action fails before anything goes out.
    @Test func anIntegerTheBodyCannotCarryExactlyIsNeverSent() {
        let huge = Verdict.confirm(
            "SAR 1", facts: ["amount": "SAR 1", "amount_minor": .integer(1 << 60), "currency": .text("SAR")])
        let store = Self.checkout(Self.method, huge, perform: true)
        var state = store.state
        let effects = state.reduce(.loaded(card: 1, generation: 1, Self.answer("total", huge)), at: Rules.start)
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        let reason = "amount_minor \(1 << 60) is too large to send exactly; nothing was sent"
        #expect(state.action.progress == .failed(action: "pay", reason: reason, verdicts: Self.check(huge).verdicts))
    }

    @Test func aCriticalCardsFailureFailsTheScreenAndNothingIsSent() {
        let store = Self.checkout(Self.method, Self.amount, perform: true)
        let failure = Failure("carts/C300/price.json: server answered HTTP 500")
        store.send(
            .failed(card: 1, generation: 1, failure, drawn: nil),
            effects: [
                .moved(card: 1, from: .loading, to: .failed),
                .track(card: 1, .hidden(failure)), .draw(.changed), .draw(.settled), .draw(.changed),
            ]
        ) { screen in
            screen.settledAt = store.now
            (screen.cards[1].loading, screen.cards[1].settledAt) = (false, Rules.start)
            screen.cards[1].phase = .hidden(reason: failure.reason, drawn: nil, last: nil, failingSince: nil)
            screen.action.perform = nil
            screen.action.progress = .failed(
                action: "pay", reason: "the screen failed (total: \(failure.reason)); nothing was sent")
        }
        #expect(store.state.frame(at: Rules.start).failure == "total: \(failure.reason)")
    }

    @Test func aNonCriticalFailureOnlyHidesItsCard() {
        let store = Rules.store([Rules.card("promo"), Self.validating("total", critical: true)])
        Self.start(store, "promo", "total")
        var state = store.state
        _ = state.reduce(.failed(card: 0, generation: 1, Failure("HTTP 500"), drawn: nil), at: Rules.start)
        #expect(state.frame(at: Rules.start).failure == nil)
        #expect(state.frame(at: Rules.start).degraded)
    }

    /// A host asks the verdicts without a person (`cancel`, a squad's harness): the reducer asks the cards whose
    /// verdict on that action is not stored yet, keeps every answer with its analytics, and a card without info is
    /// "could not check".
    @Test func askingAVerdictIsAnActionWhoseAnswersAndAnalyticsTheReducerKeeps() {
        let store = Self.checkout(Self.method, Self.amount)
        // The method card has info and a stored verdict on paying; the total card is still loading.
        store.send(.ask("pay"), effects: [.track(card: 0, .verdict("pay"))]) { screen in
            screen.action.asked = ActionCheck(
                action: "pay",
                verdicts: [
                    ActionVerdict(id: "method", verdict: Self.method, reason: nil),
                    ActionVerdict(id: "total", verdict: nil, reason: nil),
                ], inputs: ["cart": "C100"])
        }
        // Rating is none of the settings' actions: the method card is asked now, and its answer kept.
        store.send(.ask("rate-order"), effects: [.validate("rate-order", cards: [0])])
        store.send(.validated("rate-order", [0: .allow]), effects: [.track(card: 0, .verdict("rate-order"))]) {
            screen in
            screen.cards[0].verdicts["rate-order"] = .allow
            screen.action.asked = ActionCheck(
                action: "rate-order",
                verdicts: [
                    ActionVerdict(id: "method", verdict: .allow, reason: nil),
                    ActionVerdict(id: "total", verdict: nil, reason: nil),
                ], inputs: ["cart": "C100"])
        }
    }
}

/// Screens as data: what a definition says, and what it may not say.
@Suite struct ScreenDefinitionTests {
    @Test func aDefinitionCarriesItsInputsCardsCriticalMarksActionsAndPrompts() throws {
        let json = #"""
            {"title": "Checkout {cart}", "inputs": ["cart"],
             "components": ["cart", {"id": "total", "critical": true, "payload": {"items": 1}}],
             "actions": ["gift", {"id": "pay", "key": "P", "send": "carts/{cart}/pay", "result": "paid"}],
             "prompts": [{"key": "m", "label": "Pay with", "event": "payment.method.chosen", "card": "payment-method"},
                         {"name": "tip", "key": "t", "label": "Tip", "event": "tip.chosen"}]}
            """#
        let definition = try ScreenDefinition.parse(Data(json.utf8), name: "checkout")
        #expect(definition.inputs == ["cart"])
        #expect(definition.entries.map(\.id) == ["cart", "total"])
        #expect(definition.entries.map(\.critical) == [false, true])
        #expect(definition.entries[1].payload == Data(#"{"items": 1}"#.utf8))
        #expect(definition.actions.map(\.id) == ["gift", "pay"])
        #expect(definition.actions[1].action == .pay, "the action components validate, from the definition on")
        #expect(definition.actions[1].key == "P" && definition.actions[0].key == "g")
        #expect(definition.prompts.map(\.card) == ["payment-method", nil])
        #expect(definition.prompts.map(\.name) == ["payment-method", "tip"], "named, or by the card it feeds")
        #expect(definition.inputNames == ["cart", "payment-method", "tip"], "what --input takes")
        #expect(try ScreenDefinition.endpoint("carts/{cart}/pay", ["cart": "C100"]).path == "carts/C100/pay")
    }

    @Test(arguments: [
        (#"[]"#, "must be a JSON object"),
        (#"{"inputs": ["Cart"]}"#, "'inputs' must be distinct lower-case names"),
        (#"{"inputs": ["status"]}"#, "'inputs' must be distinct lower-case names"),
        (#"{"components": [{"id": "total", "critical": "yes"}]}"#, "'critical' must be true or false"),
        (#"{"actions": [{"key": "P"}]}"#, "an action needs an 'id'"),
        (#"{"actions": [{"id": "pay", "key": "Pay"}]}"#, "'key' must be one character"),
        (#"{"inputs": ["cart"], "actions": [{"id": "pay", "result": "cart"}]}"#, "'result' must be"),
        (#"{"prompts": [{"key": "m"}]}"#, "a prompt needs"),
        (#"{"prompts": [{"key": "t", "label": "Tip", "event": "tip.chosen"}]}"#, "prompt 't' needs a 'name'"),
        (#"{"prompts": [{"name": "Tip", "key": "t", "label": "Tip", "event": "tip.chosen"}]}"#, "needs a 'name'"),
        (
            #"{"inputs": ["cart"], "prompts": [{"name": "cart", "key": "t", "label": "T", "event": "t.t"}]}"#,
            "its name 'cart' is an input's, another prompt's"
        ),
        (
            #"{"prompts": [{"name": "status", "key": "t", "label": "T", "event": "t.t"}]}"#,
            "one of the report's keys"
        ),
    ])
    func aBrokenDefinitionSaysWhichFieldIsWrong(json: String, expected: String) {
        #expect {
            try ScreenDefinition.parse(Data(json.utf8), name: "x")
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test func aTemplateWithAHoleIsNoLineAndNoPath() {
        #expect(ScreenDefinition.fill("Pay {amount}", [:]) == nil)
        #expect(ScreenDefinition.fill("Pay {amount", ["amount": "1"]) == nil)
        #expect(ScreenDefinition.fill("Pay {amount}.", ["amount": "SAR 1.00"]) == "Pay SAR 1.00.")
        #expect(throws: (any Error).self) { try ScreenDefinition.endpoint("carts/{cart}/pay", [:]) }
        #expect(throws: (any Error).self) { try ScreenDefinition.endpoint("carts/{cart}/pay", ["cart": ".."]) }
    }
}

/// What an action sends is its intent, typed, and its key belongs to the attempt, not to the words.
@Suite struct ActionIntentTests {
    @Test func theBodyIsTheTypedIntentAndNeverTheWords() throws {
        let endpoint = try Endpoint("carts", "C100", "pay")
        let check = ActionCheck(
            action: "pay",
            verdicts: [
                ActionVerdict(
                    id: "total",
                    verdict: .confirm(
                        "SAR 45.45",
                        facts: ["amount": "SAR 45.45", "amount_minor": .integer(4545), "currency": .text("SAR")]),
                    reason: nil),
                ActionVerdict(
                    id: "method",
                    verdict: .confirm(
                        "with Visa", facts: ["method": "VISA •••• 4242", "method_id": .text("visa4242")]),
                    reason: nil),
            ], inputs: ["cart": "C100"])
        let request = ActionRequest(action: "pay", endpoint: endpoint, intent: check.intent, words: check.words)
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"amount_minor":4545,"cart":"C100","currency":"SAR","method_id":"visa4242"}"#)
        #expect(request.words["method"] == "VISA •••• 4242" && request.words["amount"] == "SAR 45.45")
        let hostile = ActionRequest(action: "pay", endpoint: endpoint, intent: ["a\"b": .text("c\\d\u{1}")], words: [:])
        #expect(String(decoding: hostile.body, as: UTF8.self) == #"{"a\"b":"c\\d\u0001"}"#)
        // Built by the JSON module: its escaping (a bidirectional override too), integers as digits while exact.
        let more = ActionRequest(
            action: "pay", endpoint: endpoint,
            intent: ["n": .integer(999_999_999_999_999), "m": .integer(-7), "t": .text("\u{202E}x\ny")], words: [:])
        #expect(String(decoding: more.body, as: UTF8.self) == #"{"m":-7,"n":999999999999999,"t":"\u202ex\ny"}"#)
        #expect(ActionRequest.inexact(more.intent) == nil)
        let huge: [String: Fact] = ["amount_minor": .integer(1_000_000_000_000_000), "cart": .text("C1")]
        #expect(ActionRequest.inexact(huge)?.name == "amount_minor", "never sent rounded")
    }

    /// Stripe's model: one key per attempt, reused for the same request while its outcome is unknown, another
    /// request refused until it is settled, a new key only after.
    @Test func anAttemptKeepsItsKeyUntilItIsSettled() throws {
        let counter = Locked(0)
        let ledger = MemoryAttempts {
            counter.withLock { count in
                count += 1
                return "key-\(count)"
            }
        }
        let endpoint = try Endpoint("carts", "C100", "pay")
        let full = ActionRequest(
            action: "pay", endpoint: endpoint, intent: ["amount_minor": .integer(5050)], words: [:])
        let off = ActionRequest(action: "pay", endpoint: endpoint, intent: ["amount_minor": .integer(4545)], words: [:])
        #expect(try ledger.begin(off) == .send(key: "key-1"))
        #expect(try ledger.begin(off) == .send(key: "key-1"), "a retry of the same request is the same attempt")
        #expect(throws: AttemptRefusal.self) { try ledger.begin(full) }
        let kept = KeptAnswer(fields: ["order": "1"], unread: nil)
        try ledger.settle(full, answer: kept)
        #expect(throws: AttemptRefusal.self, "settling another request settles nothing") { try ledger.begin(full) }
        try ledger.settle(off, answer: kept)
        #expect(try ledger.begin(off) == .answered(kept, at: Date(timeIntervalSince1970: 0)), "kept, never resent")
        #expect(throws: AttemptRefusal.self, "the subject is paid: another request waits") { try ledger.begin(full) }
        ledger.abandon(off)
        #expect(try ledger.begin(off) == .answered(kept, at: Date(timeIntervalSince1970: 0)), "abandon keeps it")
        // A send that failed forgets only an attempt this run made: one an earlier run sent stays unsettled.
        let earlier = MemoryAttempts { "never" }
        earlier.keep(off, key: "sent-before")
        earlier.abandon(off)
        #expect(
            try earlier.begin(off) == .send(key: "sent-before"),
            "a retry that could not connect keeps the earlier attempt")
    }

    @Test func factsTwoCardsGiveDifferentlyStopTheAction() {
        let check = ActionCheck(
            action: "pay",
            verdicts: [
                ActionVerdict(id: "total", verdict: .confirm("SAR 1", facts: ["currency": .text("SAR")]), reason: nil),
                ActionVerdict(id: "cart", verdict: .confirm("USD 1", facts: ["currency": .text("USD")]), reason: nil),
            ])
        #expect(check.outcome == .vetoed)
        #expect(check.lines.last == "veto: the cards disagree on 'currency' (total SAR, cart USD)")
        let words = ActionCheck(
            action: "pay",
            verdicts: [
                ActionVerdict(id: "a", verdict: .confirm("", facts: ["amount": "SAR 1"]), reason: nil),
                ActionVerdict(id: "b", verdict: .confirm("", facts: ["amount": "SAR 1.00"]), reason: nil),
            ])
        #expect(words.outcome == .allowed, "words are shown, never sent, so they cannot disagree")
        let otherCart = ActionCheck(
            action: "pay",
            verdicts: [ActionVerdict(id: "cart", verdict: .confirm("", facts: ["cart": .text("C999")]), reason: nil)],
            inputs: ["cart": "C100"])
        #expect(otherCart.disagreement == "cart", "a card naming another cart than the screen's stops it")
        #expect(ActionCheck(action: "pay", verdicts: []).outcome == .cannotTell)
        #expect(
            ActionCheck(action: "pay", verdicts: [ActionVerdict(id: "x", verdict: nil, reason: "timed out")])
                .lines == ["x: veto: could not check (timed out)"])
    }
}
