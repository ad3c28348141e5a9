import CoreTesting
import Foundation
import Testing

/// Screens as data and the checkout, end to end over real HTTP (the project's fault server, which logs every
/// POST it receives): a screen the project has never seen, critical cards, and paying exactly once.
@Suite struct CheckoutHTTPTests {
    /// The POSTs the server received, in order.
    func posts(_ log: URL) throws -> [[String: Any]] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try CLI.json(String($0)) }
    }

    @Test func aScreenDefinedOnlyOnTheBackendIsShownCardsInItsOrderAndItsCriticalCardFailsIt() async throws {
        let tree = try TemporaryDirectory()
        let root = tree.url.appendingPathComponent("api")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        let name = "receipt\(UInt32.random(in: 0...UInt32.max))"
        let definition = #"""
            {"title": "Receipt {order}", "inputs": ["order"],
             "components": ["payment", "order", {"id": "eta", "critical": true}]}
            """#
        try Data(definition.utf8).write(to: root.appendingPathComponent("screens/\(name).json"))
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let shown = try await CLI.run(["screen", name, "--input", "order=1234", "--plain"] + api)
        #expect(shown.status == 0, "\(shown.stderr)")
        let titles = shown.stdout.split(separator: "\n").filter { $0.hasPrefix("╭─ ") }.map {
            $0.split(separator: " ")[1]
        }
        #expect(titles == ["Payment", "Order", "Arrival"], "\(shown.stdout)")
        #expect(shown.stdout.hasPrefix("Receipt 1234\n"))

        let broken = try TestServer.faults(root: root, rules: #"{"orders/1234/eta.json": {"status": 500}}"#)
        defer { broken.stop() }
        let failed = try await CLI.run(
            ["screen", name, "--input", "order=1234", "--format", "json", "--api", broken.baseURL.absoluteString])
        #expect(failed.status == 1)
        let report = try CLI.json(failed.stdout)
        #expect(report["status"] as? String == "failed" && report["screen"] as? String == name)
        #expect(failed.stderr.hasPrefix("Receipt 1234 cannot be shown: eta: orders/1234/eta.json: server answered"))
        let missing = try await CLI.run(["screen", name] + api)
        #expect(missing.status == 64 && missing.stderr.contains("needs --input order=VALUE"))
        let unknown = try await CLI.run(["screen", "nosuch", "--input", "order=1"] + api)
        #expect(unknown.status == 1 && unknown.stderr.hasPrefix("no screen 'nosuch' on this backend"))
    }

    /// The body is the typed intent (never the words drawn: "SAR 45.45", "Visa •••• 4242"), under the key of its
    /// attempt. A settled attempt is kept with its answer: the same intent again is answered from it (the same JSON
    /// and exit code, said as "already paid"), never sent under a new key; paying the cart again with anything else
    /// takes --new-attempt, which is a new attempt with a new key.
    @Test func payingPostsOnceTheIntentTheScreenShowsUnderTheKeyOfItsAttempt() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString, "--data-dir", folder.url.appendingPathComponent("d").path]
        let json = try await CLI.run(["checkout", "C100", "--promo", "SAVE10", "--pay", "--format", "json"] + api)
        #expect(json.status == 0, "\(json.stderr)")
        let paid = try await CLI.run(["checkout", "C100", "--promo", "SAVE10", "--pay"] + api)
        #expect(paid.status == 0, "\(paid.stderr)")
        #expect(paid.stdout.contains("│ To pay                                         SAR 45.45 │"))
        #expect(paid.stdout.hasSuffix("already paid: Paid SAR 45.45 with Visa •••• 4242: order 4242\n"))
        var sent = try posts(log)
        #expect(sent.count == 1, "the same intent again is answered from its kept attempt")
        #expect(sent.first?["path"] as? String == "carts/C100/pay")
        #expect(
            sent.first?["body"] as? String
                == #"{"amount_minor":4545,"cart":"C100","currency":"SAR","method_id":"visa4242","promo":"SAVE10"}"#)
        let headers = sent.first?["headers"] as? [String: String] ?? [:]
        let key = headers.first { $0.key.lowercased() == "idempotency-key" }?.value
        #expect(key?.count == 36, "a random key per attempt: \(key ?? "none")")

        let again = try await CLI.run(["checkout", "C100", "--promo", "SAVE10", "--pay", "--format", "json"] + api)
        let report = try CLI.json(again.stdout)
        let first = try CLI.json(json.stdout)
        #expect(again.status == 0)
        #expect(
            NSDictionary(dictionary: report["paid"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: first["paid"] as? [String: Any] ?? ["none": 1]), "the same paid as then")
        #expect(
            NSDictionary(dictionary: report["action"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: first["action"] as? [String: Any] ?? ["none": 1]))
        #expect((report["paid"] as? [String: String])?["order"] == "4242")
        let action = report["action"] as? [String: Any] ?? [:]
        let verdicts = (action["verdicts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(action["outcome"] as? String == "done")
        #expect(verdicts == ["cart", "payment-method", "total"], "a done action keeps who allowed it")
        #expect(try posts(log).count == 1)
        let cash = try await CLI.run(["checkout", "C100", "--method", "cash", "--pay"] + api)
        #expect(cash.status == 7, "the cart is paid: another payment of it is on purpose only")
        #expect(cash.stdout.contains("pay not sent: an earlier pay of cart C100 went through at "), "\(cash.stdout)")
        #expect(cash.stdout.contains("run again with --new-attempt"))
        let onPurpose = try await CLI.run(["checkout", "C100", "--method", "cash", "--pay", "--new-attempt"] + api)
        #expect(onPurpose.stdout.hasSuffix("Paid SAR 50.50 with Cash on delivery: order 4242\n"))
        sent = try posts(log)
        let cashKey = (sent.last?["headers"] as? [String: String])?["Idempotency-Key"]
        #expect(sent.count == 2 && cashKey != nil && cashKey != key, "another payment, another key")
    }

    @Test func aVetoOrAFailedScreenSendsNothingAndAFailedSendIsNotRetried() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"carts/C100/pay": {"status": 402}}"#, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let vetoed = try await CLI.run(["checkout", "C200", "--pay"] + api)
        #expect(vetoed.status == 3)
        #expect(vetoed.stdout.hasSuffix("total: ok: SAR 50.50\nCheckout C200 can't be paid (1 veto).\n"))
        #expect(vetoed.stdout.contains("\npayment-method: veto: choose how to pay\n"))
        let failed = try await CLI.run(["checkout", "C300", "--pay"] + api)
        #expect(failed.status == 1)
        #expect(
            failed.stdout.hasPrefix("pay failed: the screen failed (total: ")
                && failed.stdout.hasSuffix("nothing was sent\n"))
        #expect(
            failed.stderr.contains(
                "Checkout C300 cannot be shown: total: carts/C300/price.json: server answered HTTP 500"))
        #expect(try posts(log).isEmpty, "nothing was sent for a veto or a failed screen")
        let refused = try await CLI.run(["checkout", "C100", "--pay"] + api)
        #expect(refused.status == 1)
        #expect(
            refused.stdout.hasSuffix(
                "pay failed: carts/C100/pay: server answered HTTP 402: refused, nothing was done\n"))
        #expect(try posts(log).count == 1, "sent once, not retried")
        let json = try await CLI.run(["checkout", "C100", "--pay", "--format", "json"] + api)
        let action = try CLI.json(json.stdout)["action"] as? [String: Any] ?? [:]
        #expect(json.status == 1 && action["outcome"] as? String == "failed")
        #expect((action["verdicts"] as? [Any])?.count == 3, "a failed action keeps who allowed it: \(action)")
    }

    /// The pay endpoint reads the request and drops the connection without answering (RST or FIN, after the body
    /// or after the headers only), after the screen's GETs left kept-alive connections behind: one POST, never
    /// four, and the run says the payment may have gone through (exit 5), never that it failed. The JSON report
    /// says "unknown", with the verdicts and the facts that were sent.
    @Test(arguments: [("reset", "true"), ("close", "true"), ("reset", #""headers""#), ("close", #""headers""#)])
    func aPaymentWhoseConnectionDropsIsPostedOnceAndMayHaveGoneThrough(drop: String, when: String) async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"carts/C100/pay": {"\#(drop)": \#(when)}}"#, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let paid = try await CLI.run(["checkout", "C100", "--pay"] + api)
        #expect(paid.status == 5, "\(paid.stdout)\(paid.stderr)")
        #expect(paid.stdout.hasSuffix("The payment may have gone through: check before paying again.\n"))
        #expect(paid.stdout.contains("\npay: carts/C100/pay: ") && !paid.stdout.contains("failed"), "\(paid.stdout)")
        #expect(try posts(log).count == 1, "POSTed once")
        let json = try await CLI.run(["checkout", "C100", "--pay", "--format", "json"] + api)
        #expect(json.status == 5)
        let action = try CLI.json(json.stdout)["action"] as? [String: Any] ?? [:]
        #expect(action["outcome"] as? String == "unknown")
        #expect(
            (action["reason"] as? String)?.hasSuffix("The payment may have gone through: check before paying again.")
                == true)
        #expect((action["sent"] as? [String: String])?["amount_minor"] == "5050")
        #expect((action["verdicts"] as? [Any])?.count == 3)
        #expect(try posts(log).count == 2)
    }

    /// Every answer a pay endpoint can give, over real HTTP, each POSTed once: a 2xx is done even when its answer
    /// cannot be read (it says so and what was sent); a redirect (never followed), a 409 for the same key, a 5xx or
    /// no answer by the deadline may have gone through (5); only a refusal (4xx) is a failure (1).
    @Test(arguments: [
        (#"{"status": 204}"#, 0, "Pay: done, but the answer could not be read (carts/C100/pay: the answer is empty)"),
        (#"{"body": "empty"}"#, 0, "Pay: done, but the answer could not be read (carts/C100/pay: the answer is empty)"),
        (#"{"status": 201, "body": "garbage"}"#, 0, "Pay: done, but the answer could not be read (carts/C100/pay: "),
        (#"{"body": "garbage"}"#, 0, "Pay: done, but the answer could not be read (carts/C100/pay: the answer is not"),
        (
            #"{"redirect": "/orders/4242/screen.json", "status": 301}"#, 5,
            "pay: carts/C100/pay: server answered HTTP 301"
        ),
        (#"{"redirect": "/orders/4242/screen.json"}"#, 5, "pay: carts/C100/pay: server answered HTTP 302: a redirect"),
        (
            #"{"redirect": "/orders/4242/screen.json", "status": 303}"#, 5,
            "pay: carts/C100/pay: server answered HTTP 303"
        ),
        (#"{"redirect": "/carts/C100/pay", "status": 307}"#, 5, "pay: carts/C100/pay: server answered HTTP 307"),
        (#"{"status": 409}"#, 5, "pay: carts/C100/pay: server answered HTTP 409: a conflict (a request with the same"),
        (#"{"status": 500}"#, 5, "pay: carts/C100/pay: server answered HTTP 500"),
        (#"{"status": 502}"#, 5, "pay: carts/C100/pay: server answered HTTP 502"),
        (#"{"status": 503}"#, 5, "pay: carts/C100/pay: server answered HTTP 503"),
        (#"{"status": 504}"#, 5, "pay: carts/C100/pay: server answered HTTP 504"),
        (#"{"hang": true}"#, 5, "pay: carts/C100/pay: no answer within 2s after the request was sent"),
        (#"{"status": 400}"#, 1, "pay failed: carts/C100/pay: server answered HTTP 400: refused, nothing was done"),
        (#"{"status": 402}"#, 1, "pay failed: carts/C100/pay: server answered HTTP 402: refused, nothing was done"),
        (#"{"status": 422}"#, 1, "pay failed: carts/C100/pay: server answered HTTP 422: refused, nothing was done"),
    ])
    func everyAnswerToAPaymentIsSaidForWhatItIs(rule: String, status: Int32, said: String) async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, rules: #"{"carts/C100/pay": \#(rule)}"#, log: log)
        defer { server.stop() }
        let paid = try await CLI.run([
            "checkout", "C100", "--pay", "--timeout", "2", "--api", server.baseURL.absoluteString,
        ])
        #expect(paid.status == status, "\(rule): \(paid.stdout)\(paid.stderr)")
        #expect(paid.stdout.contains("\n" + said), "\(rule): \(paid.stdout)")
        if status == 5 {
            #expect(paid.stdout.hasSuffix("The payment may have gone through: check before paying again.\n"))
        }
        if status == 0 { #expect(paid.stdout.contains("sent: amount SAR 50.50, amount_minor 5050")) }
        #expect(try posts(log).count == 1, "\(rule): POSTed once")
    }

    /// `--record` holds every backend answer, the payment's too (marked POST), so `--replay` of the file plays the
    /// payment's outcome back without sending anything: done, or unknown when the connection dropped.
    @Test func aRecordingHoldsThePaymentsAnswerAndReplaysIt() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        for (rules, status) in [("{}", Int32(0)), (#"{"carts/C100/pay": {"reset": true}}"#, 5)] {
            let server = try TestServer.faults(root: CLI.fixtures, rules: rules, log: log)
            defer { server.stop() }
            let record = folder.url.appendingPathComponent("paid\(status).jsonl")
            let paid = try await CLI.run(
                ["checkout", "C100", "--pay", "--record", record.path, "--api", server.baseURL.absoluteString])
            #expect(paid.status == status)
            let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map {
                try CLI.json(String($0))
            }
            let answer = try #require(lines.first { $0["method"] as? String == "POST" })
            #expect(answer["endpoint"] as? String == "carts/C100/pay")
            #expect(status == 0 ? answer["status"] as? Int == 200 : answer["unanswered"] as? Bool == true)
            let sent = try posts(log).count
            let replayed = try await CLI.run(["checkout", "C100", "--pay", "--replay", record.path])
            #expect(replayed.status == status && replayed.stdout == paid.stdout, "\(replayed.stdout)")
            #expect(try posts(log).count == sent, "a replay sends nothing")
        }
    }
}
