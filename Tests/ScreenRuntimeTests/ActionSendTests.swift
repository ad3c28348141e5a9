import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A card that prices a cart and confirms paying its price.
private struct PriceCard: Component, Validatable {
    static let id: ComponentID = "price"
    func load(_ context: ComponentContext) async throws -> String {
        String(
            decoding: try await context.backend.fetch(try Endpoint("carts", try context.id("cart"), "price")),
            as: UTF8.self)
    }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Price", rows: [Row($0)]) }
    }
    func validate(_ action: UserAction, info: String) -> Verdict {
        .confirm(info, facts: ["amount": .text(info), "method": "Visa"])
    }
}

/// The runtime carries out a confirmed action's send through the backend: once, with its key, and reads the
/// answer. A 2xx whose answer is not a JSON object is done (the backend took it) and says it could not read it;
/// a send that may have reached the backend is unknown, never failed.
@Suite struct ActionSendTests {
    func run(answer: String) async throws -> (ScreenFrame, CannedBackend) {
        try await run(.json(answer))
    }

    func run(_ answer: CannedAnswer, attempts: (any AttemptLedger)? = MemoryAttempts { "key-1" }) async throws
        -> (ScreenFrame, CannedBackend)
    {
        let clock = VirtualClock()
        let backend = CannedBackend(
            ["carts/C1/price": .json("SAR 1.00"), "POST carts/C1/pay": answer], clock: clock)
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "carts/{cart}/price") { PriceCard() })
        var pay = ActionSpec(id: "pay")
        (pay.send, pay.done) = ("carts/{cart}/pay", "Paid {amount}: order {order}")
        var settings = ScreenSettings(ids: ["cart": "C1"])
        (settings.actions, settings.perform, settings.attempts) = ([pay], pay, attempts)
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: PriceCard.id)], registry: registry, backend: backend, clock: clock,
            settings: settings, report: RuntimeReport(diagnostic: { _ in }))
        let final = try #require(await clock.drive(within: .seconds(10)) { await runtime.run { _, _ in } })
        return (final, backend)
    }

    @Test func theSendGoesOnceWithItsKeyAndTheAnswersFieldsFillTheLine() async throws {
        let (final, backend) = try await run(answer: #"{"order": 42, "ok": true, "nested": {"x": 1}}"#)
        let body = Data(#"{"amount":"SAR 1.00","cart":"C1"}"#.utf8)
        #expect(backend.sent == [SentRequest(path: "carts/C1/pay", body: body, headers: ["Idempotency-Key": "key-1"])])
        guard case .done(_, let fields, let line, _, let verdicts, nil)? = final.action else {
            Issue.record("not done: \(String(describing: final.action))")
            return
        }
        #expect(line == "Paid SAR 1.00: order 42")
        #expect(
            fields == [
                "amount": "SAR 1.00", "cart": "C1", "method": "Visa", "order": "42", "ok": "true",
                "nested": #"{"x":1}"#,
            ])
        #expect(
            verdicts == [
                ActionVerdict(
                    id: "price", verdict: .confirm("SAR 1.00", facts: ["amount": .text("SAR 1.00"), "method": "Visa"]),
                    reason: nil)
            ])
    }

    /// The backend took it (a 2xx) but its answer cannot be read: done, saying so and what was sent; never
    /// "failed", which would invite paying again.
    @Test(arguments: [("[1]", "the answer is not a JSON object"), ("", "the answer is empty")])
    func aTakenSendWhoseAnswerCannotBeReadIsDone(answer: String, why: String) async throws {
        let (final, backend) = try await run(answer: answer)
        #expect(backend.sent.count == 1)
        guard case .done(_, let fields, let line, _, _, let unread)? = final.action else {
            Issue.record("not done: \(String(describing: final.action))")
            return
        }
        #expect(unread == "carts/C1/pay: \(why)" && fields == ["amount": "SAR 1.00", "cart": "C1", "method": "Visa"])
        #expect(
            line
                == "Pay: done, but the answer could not be read (carts/C1/pay: \(why)); sent: amount SAR 1.00, cart C1, "
                + "method Visa")
        #expect(final.next == nil)
    }

    /// A send that went out and got no answer is unknown, in the action's words, sent once.
    @Test func aSendThatMayHaveReachedTheBackendIsUnknown() async throws {
        let (final, backend) = try await run(.fault(.unanswered("Empty reply from server", path: "carts/C1/pay")))
        #expect(backend.sent.count == 1)
        guard case .unknown(let id, let reason, let line, let facts, let verdicts, _)? = final.action else {
            Issue.record("not unknown: \(String(describing: final.action))")
            return
        }
        #expect(
            id == "pay" && reason == "carts/C1/pay: Empty reply from server"
                && facts == ["amount": "SAR 1.00", "cart": "C1"])
        #expect(line == "Pay may have gone through: check before trying again.")
        #expect(verdicts.count == 1)
    }

    /// Every fault a send can meet, read by the backend contract: unknown whenever the request may have been acted
    /// on, failed only when nothing was sent or the backend refused it.
    @Test(arguments: [
        (BackendError.unanswered("Empty reply from server after the request was sent", path: "p"), true),
        (.unanswered("no answer within 1s after the request was sent", path: "p"), true),
        (.httpStatus(301, path: "p"), true), (.httpStatus(302, path: "p"), true), (.httpStatus(303, path: "p"), true),
        (.httpStatus(307, path: "p"), true), (.httpStatus(308, path: "p"), true), (.httpStatus(409, path: "p"), true),
        (.httpStatus(500, path: "p"), true), (.httpStatus(502, path: "p"), true), (.httpStatus(503, path: "p"), true),
        (.httpStatus(504, path: "p"), true), (.httpStatus(100, path: "p"), true),
        (.httpStatus(400, path: "p"), false), (.httpStatus(402, path: "p"), false),
        (.httpStatus(422, path: "p"), false),
        (.notFound(path: "p"), false), (.timeout(path: "p"), false),
        (.transport("Couldn't connect to server", path: "p"), false),
        (.invalidRequest("this backend only reads"), false),
    ])
    func aFaultIsUnknownWheneverTheSendMayHaveBeenActedOn(fault: BackendError, unknown: Bool) {
        switch SendOutcome(fault: fault) {
        case .unknown(let reason): #expect(unknown && reason.hasPrefix(fault.description))
        case .failed(let reason):
            #expect(!unknown)
            #expect(reason.hasSuffix("; nothing was sent") || reason.hasSuffix("refused, nothing was done"))
        case .done, .pending, .kept: Issue.record("a fault is never done, nor pending")
        }
    }

    /// An answer that gives another amount, currency, method or cart than was sent is never reported as what was
    /// paid: the outcome is unknown, naming each field, and the attempt stays unsettled.
    @Test func anAnswerContradictingWhatWasSentIsNeverWhatWasPaid() async throws {
        let (final, _) = try await run(
            answer: #"{"amount": "SAR 0.01", "method": "Cash", "cart": "C999", "order": "1"}"#)
        guard case .unknown(_, let reason, _, let facts, _, let contradicted)? = final.action else {
            Issue.record("not unknown: \(String(describing: final.action))")
            return
        }
        #expect(contradicted == ["amount": "SAR 0.01", "method": "Cash", "cart": "C999"])
        #expect(
            reason
                == "the answer contradicts what was sent: amount SAR 0.01 (sent SAR 1.00), cart C999 (sent C1), method "
                + "Cash (sent Visa)")
        #expect(facts == ["amount": "SAR 1.00", "cart": "C1"] && final.next == nil)
    }

    /// Only the typed values sent are compared exactly; words are compared by their letters (case and spacing
    /// aside); a sent field answered in another case, or as an object, a list or null, contradicts it.
    @Test(arguments: [
        (#"{"order": "7", "Amount": "SAR 2.00"}"#, ["Amount": "SAR 2.00"]),
        (#"{"order": "7", "amount": {"value": "SAR 1.00"}}"#, ["amount": #"{"value":"SAR 1.00"}"#]),
        (#"{"order": "7", "cart": null}"#, ["cart": "null"]),
        (#"{"order": "7", "CART": "C2"}"#, ["CART": "C2"]),
        (#"{"order": "7", "method": ["Cash"]}"#, ["method": #"["Cash"]"#]),
        (#"{"order": "7", "method": "VISA", "amount": "SAR 1.00", "cart": "C1"}"#, [:]),
    ])
    func whatAnAnswerMayNotContradict(answer: String, contradicted: [String: String]) async throws {
        let (final, _) = try await run(answer: answer)
        switch final.action {
        case .unknown(_, _, _, _, _, let found)?: #expect(found == contradicted)
        case .done?: #expect(contradicted.isEmpty)
        default: Issue.record("neither done nor unknown: \(String(describing: final.action))")
        }
    }

    /// A retry that fails before anything goes out (no connection) forgets nothing an earlier run sent: that
    /// attempt's outcome is still unknown, and the next run resends it under its key.
    @Test func aFailedRetryKeepsTheEarlierAttempt() async throws {
        let ledger = MemoryAttempts { "new-key" }
        let request = ActionRequest(
            action: "pay", endpoint: try Endpoint("carts", "C1", "pay"),
            intent: ["amount": .text("SAR 1.00"), "cart": .text("C1")], words: [:], subject: ["cart": "C1"])
        ledger.keep(request, key: "sent-before")
        let (final, backend) = try await run(
            .fault(.transport("Couldn't connect to server", path: "carts/C1/pay")), attempts: ledger)
        #expect(backend.sent.map(\.headers) == [["Idempotency-Key": "sent-before"]])
        guard case .failed? = final.action else {
            Issue.record("not failed: \(String(describing: final.action))")
            return
        }
        #expect(try ledger.begin(request) == .send(key: "sent-before"))
    }

    /// A ledger that refuses (an earlier attempt holds another request) or cannot keep the attempt: nothing is
    /// sent; and a screen given no ledger sends nothing either.
    @Test func withoutAKeptAttemptNothingIsSent() async throws {
        struct Refusing: AttemptLedger {
            let refusal: AttemptRefusal
            func begin(_ request: ActionRequest) throws(AttemptRefusal) -> AttemptStart { throw refusal }
            func settle(_ request: ActionRequest, answer: KeptAnswer) {}
            func abandon(_ request: ActionRequest) {}
        }
        let (pending, first) = try await run(.json("{}"), attempts: Refusing(refusal: .pending("an earlier pay")))
        #expect(first.sent.isEmpty)
        #expect(pending.action == .pending(action: "pay", reason: "an earlier pay", verdicts: pending.action.verdicts))
        let (unkept, second) = try await run(.json("{}"), attempts: Refusing(refusal: .unkept("disk full")))
        #expect(second.sent.isEmpty)
        guard case .failed(_, let reason, _)? = unkept.action else {
            Issue.record("not failed: \(String(describing: unkept.action))")
            return
        }
        #expect(reason == "disk full; nothing was sent")
        let (none, third) = try await run(.json("{}"), attempts: nil)
        #expect(third.sent.isEmpty)
        guard case .failed? = none.action else {
            Issue.record("not failed: \(String(describing: none.action))")
            return
        }
    }
}

extension ActionProgress? {
    /// The verdicts a progress carries, for comparing whole values.
    fileprivate var verdicts: [ActionVerdict] {
        if case .pending(_, _, let verdicts)? = self { return verdicts }
        return []
    }
}
