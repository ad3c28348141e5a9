import CoreTesting
import Foundation
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A payment is one typed intent, sent under one key until its outcome is known: the cases of issue 56, each
/// over real HTTP (the project's fault server, whose POST log shows exactly what was sent, and how often).
@Suite struct PaymentIntentHTTPTests: PaymentHTTPSuite {
    /// A code the person asked for that is not in the payment stops it, whatever kept it out (its endpoint
    /// failing, an unknown code): nothing is POSTed, exit 6, and the line says which code and why.
    @Test(arguments: [
        (
            #"{"promos/SAVE10.json": {"status": 500}}"#, "SAVE10",
            "its card failed: promos/SAVE10.json: server answered HTTP 500"
        ),
        (#"{"promos/SAVE10.json": {"body": "garbage"}}"#, "SAVE10", "its card failed: "),
        ("{}", "NOPE42", "the cards did not apply it"),
        ("{}", "save10x", "the cards did not apply it"),
    ])
    func aPromoAskedForThatIsNotAppliedStopsThePayment(rules: String, code: String, why: String) async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, rules: rules, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let text = try await CLI.run(["checkout", "C100", "--pay", "--promo", code] + api)
        #expect(text.status == 6, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("\nPromo code \(code) is not applied (\(why)"))
        #expect(!text.stdout.contains("Paid"))
        let json = try await CLI.run(
            ["checkout", "C100", "--input", "promo=\(code)", "--pay", "--format", "json"] + api)
        #expect(json.status == 6)
        let action = try CLI.json(json.stdout)["action"] as? [String: Any] ?? [:]
        #expect(action["outcome"] as? String == "incomplete")
        let missing = action["missing"] as? [[String: String]] ?? []
        #expect(missing.first?["name"] == "promo" && missing.first?["value"] == code, "\(action)")
        #expect(posts(log).isEmpty, "nothing was sent")
    }

    /// The cart card in one currency, the total in another: both drawn, nothing paid (the cards disagree).
    @Test func cardsThatDisagreeOnTheCurrencyStopThePayment() async throws {
        let folder = try TemporaryDirectory()
        let usd = #"{"items": [{"name": "Fries", "quantity": 1, "price": {"minor": 1050, "currency": "USD"}}]}"#
        let root = try tree(folder, ["carts/C100/cart.json": usd])
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: root, log: log)
        defer { server.stop() }
        let paid = try await CLI.run(["checkout", "C100", "--pay", "--api", server.baseURL.absoluteString])
        #expect(paid.status == 3, "\(paid.stdout)\(paid.stderr)")
        #expect(paid.stdout.contains("\nveto: the cards disagree on 'currency' (cart USD, total SAR)\n"))
        #expect(posts(log).isEmpty)
    }

    /// An answer that names another amount, currency, method or cart than was sent is said as such and never
    /// printed as what was paid: exit 5, JSON `contradicted`.
    @Test func anAnswerContradictingWhatWasSentIsNeverPrintedAsPaid() async throws {
        let folder = try TemporaryDirectory()
        let answer = #"{"amount":"SAR 0.01","currency":"USD","method":"Cash","cart":"C999","order":"1"}"#
        let root = try tree(folder, ["carts/C100/_pay.post.json": answer])
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let text = try await CLI.run(["checkout", "C100", "--pay"] + api)
        #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
        #expect(!text.stdout.contains("Paid"))
        #expect(
            text.stdout.contains(
                "pay: the answer contradicts what was sent: amount SAR 0.01 (sent SAR 50.50), cart C999 (sent C100), "
                    + "currency USD (sent SAR), method Cash (sent Visa •••• 4242)"))
        let json = try await CLI.run(["checkout", "C100", "--pay", "--format", "json", "--new-attempt"] + api)
        let report = try CLI.json(json.stdout)
        #expect(json.status == 5 && report["paid"] == nil)
        let action = report["action"] as? [String: Any] ?? [:]
        #expect(action["outcome"] as? String == "unknown")
        #expect(
            action["contradicted"] as? [String: String]
                == ["amount": "SAR 0.01", "currency": "USD", "method": "Cash", "cart": "C999"])
    }

    /// Stripe's model over real HTTP: a payment whose outcome is unknown keeps its key; the same intent again
    /// (another output format, another option order) resends the same body under it; another intent is refused
    /// (exit 7) until the person settles it with --new-attempt, which sends under a new key.
    @Test func anUnknownPaymentKeepsItsKeyAndRefusesAnotherUntilSettled() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, rules: #"{"carts/C100/pay": {"reset": true}}"#, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let data = ["--data-dir", folder.url.appendingPathComponent("data").path]
        let first = try await CLI.run(["checkout", "C100", "--pay", "--promo", "SAVE10"] + api + data)
        #expect(first.status == 5)
        let again = try await CLI.run(
            ["--format", "json", "checkout", "--input", "promo=SAVE10", "C100", "--pay"] + data + api)
        #expect(again.status == 5)
        var sent = posts(log)
        #expect(sent.count == 2 && key(sent[0]) != nil && key(sent[0]) == key(sent[1]), "the same attempt, resent")
        #expect(sent.count == 2 && sent[0]["body"] as? String == sent[1]["body"] as? String)
        let other = try await CLI.run(["checkout", "C100", "--pay"] + api + data)
        #expect(other.status == 7, "\(other.stdout)\(other.stderr)")
        #expect(
            other.stdout.contains(
                "pay not sent: an earlier pay of cart C100 to carts/C100/pay (amount_minor 4545, cart C100, "))
        #expect(other.stdout.contains("run again with --new-attempt"))
        #expect(posts(log).count == 2, "a different payment is not sent while the first is unsettled")
        let settled = try await CLI.run(["checkout", "C100", "--pay", "--new-attempt"] + api + data)
        #expect(settled.status == 5)
        sent = posts(log)
        #expect(sent.count == 3 && key(sent[2]) != key(sent[0]), "a new attempt, a new key")
        #expect(sent.count == 3 && (sent[2]["body"] as? String)?.contains("SAVE10") == false)
    }

    /// Two runs paying at once agree on one attempt: both send under the same key.
    @Test func twoRunsAtOnceAgreeOnOneAttempt() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"carts/C100/pay": {"status": 503}}"#, log: log)
        defer { server.stop() }
        // A generous deadline: two runs at once under a sanitizer on a busy machine must not time out their cards.
        let arguments = [
            "checkout", "C100", "--pay", "--timeout", "120", "--api", server.baseURL.absoluteString, "--data-dir",
            folder.url.appendingPathComponent("data").path,
        ]
        async let one = CLI.run(arguments, limit: .seconds(300))
        async let two = CLI.run(arguments, limit: .seconds(300))
        let (first, second) = try await (one, two)
        #expect(
            [first.status, second.status] == [5, 5], "\(first.stdout)\(first.stderr)\(second.stdout)\(second.stderr)")
        let keys = Set(posts(log).compactMap(key))
        #expect(posts(log).count == 2 && keys.count == 1, "\(keys)")
    }

    /// A recorded SAR 45.45 payment answers only itself: replaying the checkout without the code (SAR 50.50) is
    /// refused and sends nothing.
    @Test func aReplayAnswersOnlyTheRecordedPayment() async throws {
        let folder = try TemporaryDirectory()
        let server = try TestServer.faults(root: CLI.fixtures)
        defer { server.stop() }
        let record = folder.url.appendingPathComponent("paid.jsonl")
        let paid = try await CLI.run(
            [
                "checkout", "C100", "--pay", "--promo", "SAVE10", "--record", record.path, "--api",
                server.baseURL.absoluteString,
            ])
        #expect(paid.status == 0)
        let same = try await CLI.run(["checkout", "C100", "--pay", "--promo", "SAVE10", "--replay", record.path])
        #expect(same.status == 0 && same.stdout == paid.stdout)
        let other = try await CLI.run(["checkout", "C100", "--pay", "--replay", record.path])
        #expect(other.status == 1, "\(other.stdout)")
        #expect(other.stdout.contains("the recording holds another request to it") && !other.stdout.contains("Paid"))
    }

    /// A recording another run holds is said, never torn: the second run stops at once with one line (64).
    @Test func aRecordingAnotherRunHoldsIsRefused() async throws {
        let folder = try TemporaryDirectory()
        let record = folder.url.appendingPathComponent("shared.jsonl")
        try Data("held\n".utf8).write(to: record)
        let descriptor = open(record.path, O_WRONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let second = try await CLI.run(["1234", "--record", record.path])
        #expect(second.status == 64)
        #expect(second.stderr.contains("cannot be written: another run is writing it; give each run its own file"))
        #expect(try String(contentsOf: record, encoding: .utf8) == "held\n", "nothing cut or written")
    }
}
