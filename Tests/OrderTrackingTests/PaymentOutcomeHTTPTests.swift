import CoreTesting
import Foundation
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A payment's outcome is never lost, and the person's choice is the one paid (issue 66's cases), each over real
/// HTTP: the project's fault server, whose POST log shows exactly what was sent and how often.
@Suite struct PaymentOutcomeHTTPTests: PaymentHTTPSuite {
    /// The binary through bash (`$0` is the binary), so a test can point stdout at /dev/full or a pipe.
    func shell(_ script: String, _ arguments: [String], extra: [String: String] = [:]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            "bash", ["-c", script, CLI.binary] + arguments, environment: CLI.environment.merging(extra) { $1 },
            limit: .seconds(120))
    }

    /// A run that paid exits 0 even when its report cannot be written (a full disk, a reader gone), says the
    /// outcome on stderr, and keeps the attempt: retried as a script would, it is answered from it, never paid
    /// again. An unknown outcome keeps its 5 the same way.
    @Test func aPaidRunWhoseReportCannotBeWrittenKeeps0AndSaysWhatWasPaid() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, log: log)
        defer { server.stop() }
        let arguments = [
            "checkout", "C100", "--pay", "--api", server.baseURL.absoluteString, "--data-dir",
            folder.url.appendingPathComponent("d").path,
        ]
        let full = try await shell(#"exec "$0" "$@" > /dev/full"#, arguments)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stderr.contains("order-tracking: cannot write to standard output: No space left on device"))
        #expect(full.stderr.contains("order-tracking: Paid SAR 50.50 with Visa •••• 4242: order 4242\n"))
        for _ in 0..<2 {
            let piped = try await shell(#""$0" "$@" | head -n 1; exit "${PIPESTATUS[0]}""#, arguments)
            #expect(piped.status == 0, "\(piped.stderr)")
        }
        let sent = posts(log)
        #expect(sent.count == 1, "3 runs, one payment: \(sent.count) POSTs")

        let unknownLog = folder.url.appendingPathComponent("unknown.jsonl")
        let dropping = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"carts/C100/pay": {"reset": true}}"#, log: unknownLog)
        defer { dropping.stop() }
        let unknown = try await shell(
            #"exec "$0" "$@" > /dev/full"#,
            ["checkout", "C100", "--pay", "--api", dropping.baseURL.absoluteString])
        #expect(unknown.status == 5, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("order-tracking: outcome unknown: pay: "))
        #expect(unknown.stderr.contains("The payment may have gone through: check before paying again."))
    }

    /// Two runs at once make one payment: they agree on one attempt, so every POST carries one key.
    @Test func twoRunsAtOncePayUnderOneKey() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, log: log)
        defer { server.stop() }
        let arguments = [
            "checkout", "C100", "--pay", "--timeout", "120", "--api", server.baseURL.absoluteString, "--data-dir",
            folder.url.appendingPathComponent("data").path,
        ]
        async let one = CLI.run(arguments, limit: .seconds(300))
        async let two = CLI.run(arguments, limit: .seconds(300))
        let (first, second) = try await (one, two)
        #expect([first.status, second.status] == [0, 0], "\(first.stderr)\(second.stderr)")
        let keys = Set(posts(log).compactMap(key))
        #expect(keys.count == 1, "\(keys)")
        let third = try await CLI.run(arguments)
        #expect(third.status == 0 && third.stdout.contains("already paid: Paid SAR 50.50"))
        #expect(Set(posts(log).compactMap(key)) == keys)
    }

    /// A --new-attempt never goes out while another run's send of the same cart awaits its answer: refused with
    /// exit 7 (it cannot have been checked yet), and nothing more is sent.
    @Test func aNewAttemptWaitsForASendInFlight() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: CLI.fixtures, rules: #"{"carts/C100/pay": {"hang": true}}"#, log: log)
        defer { server.stop() }
        let script = #"""
            "$0" "$@" > /dev/null 2>&1 & first=$!
            for _ in $(seq 1200); do [ -s "$POSTS" ] && break; sleep 0.1; done
            "$0" "$@" --method cash --new-attempt; status=$?
            kill -TERM "$first"; wait "$first"; exit "$status"
            """#
        let run = try await shell(
            script,
            [
                "checkout", "C100", "--pay", "--timeout", "600", "--api", server.baseURL.absoluteString, "--data-dir",
                folder.url.appendingPathComponent("d").path,
            ], extra: ["POSTS": log.path])
        #expect(run.status == 7, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("pay not sent: another run is sending a pay of cart C100 now; wait for its answer"))
        #expect(posts(log).count == 1)
    }

    /// A screen whose action sends to `carts/{cart}/pay/{method_id}` (screens are data) still has one attempt per
    /// cart: while a Visa payment's outcome is unknown, a cash payment of the same cart is not sent (exit 7).
    @Test func aSendPathWithTheMethodInItIsStillOneAttemptPerCart() async throws {
        let folder = try TemporaryDirectory()
        let definition = try String(
            contentsOf: CLI.fixtures.appendingPathComponent("screens/checkout.json"), encoding: .utf8)
        let root = try tree(
            folder,
            [
                "screens/checkout.json": definition.replacingOccurrences(
                    of: #""send": "carts/{cart}/pay""#, with: #""send": "carts/{cart}/pay/{method_id}""#),
                "carts/C100/pay/_visa4242.post.json": #"{"order": "4242"}"#,
                "carts/C100/pay/_cash.post.json": #"{"order": "4243"}"#,
            ])
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: root, rules: #"{"carts/C100/pay/visa4242": {"reset": true}}"#, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString, "--data-dir", folder.url.appendingPathComponent("d").path]
        let visa = try await CLI.run(["checkout", "C100", "--pay"] + api)
        #expect(visa.status == 5, "\(visa.stdout)\(visa.stderr)")
        let cash = try await CLI.run(["checkout", "C100", "--method", "cash", "--pay"] + api)
        #expect(cash.status == 7, "\(cash.stdout)\(cash.stderr)")
        #expect(cash.stdout.contains("pay not sent: an earlier pay of cart C100 to carts/C100/pay/visa4242 ("))
        #expect(posts(log).map { $0["path"] as? String } == ["carts/C100/pay/visa4242"])
    }

    /// A method is chosen by its id, compared exactly: with ids "2" (Visa) and "1" (Mada), `--method 1` pays "1";
    /// a near miss in letter case pays nothing and names the id it nearly is (exit 3).
    @Test func aMethodIsChosenByItsIdExactly() async throws {
        let folder = try TemporaryDirectory()
        let methods = """
            {"methods": [
              {"id": "2", "method": {"type": "card", "brand": "visa", "last4": "4242"}, "usable": true},
              {"id": "1", "method": {"type": "card", "brand": "mada", "last4": "1111"}, "usable": true}
            ], "chosen": "2"}
            """
        let root = try tree(folder, ["carts/C100/methods.json": methods])
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: root, log: log)
        defer { server.stop() }
        let api = ["--api", server.baseURL.absoluteString]
        let one = try await CLI.run(["checkout", "C100", "--method", "1", "--pay"] + api)
        #expect(one.status == 0, "\(one.stdout)\(one.stderr)")
        #expect(one.stdout.hasSuffix("Paid SAR 50.50 with Mada •••• 1111: order 4242\n"))
        #expect((posts(log).first?["body"] as? String)?.contains(#""method_id":"1""#) == true)
        let near = try await CLI.run(["checkout", "C100", "--method", "VISA4242", "--pay"])
        #expect(near.status == 3)
        #expect(
            near.stdout.contains(
                "payment-method: veto: choose how to pay (VISA4242 is not a method's id (ids compare exactly): did you "
                    + "mean visa4242?)"), "\(near.stdout)")
        #expect(posts(log).count == 1)
    }

    /// The cart's items and the bill must agree: a price endpoint billing SAR 999.99 for a SAR 40.50 cart is a
    /// veto naming both, and nothing is sent.
    @Test func aBillForOtherItemsThanTheCartsIsAVetoNamingBoth() async throws {
        let folder = try TemporaryDirectory()
        let price = #"{"items": {"minor": 99999, "currency": "SAR"}, "delivery": {"minor": 1000, "currency": "SAR"}}"#
        let root = try tree(folder, ["carts/C100/price.json": price])
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(root: root, log: log)
        defer { server.stop() }
        let run = try await CLI.run(["checkout", "C100", "--pay", "--api", server.baseURL.absoluteString])
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\nveto: the cards disagree on 'items' (cart SAR 40.50, total SAR 999.99)\n"))
        #expect(run.stdout.hasSuffix("Checkout C100 can't be paid (1 veto).\n"))
        #expect(posts(log).isEmpty)
    }

    /// Payments' worker killed once its cards are drawn, while the promo is still loading: the total's code stopped
    /// as the code arrived, so the card loads again in a new worker, and the payment waits for it: exactly the
    /// total the cards then show (the code applied), never "vetoed" beside "can be paid".
    @Test func aWorkerKilledBeforeThePromoAnswersNeverLeavesThePaymentHalfAsked() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"promos/SAVE10.json": {"delay_ms": 8000}}"#, log: log)
        defer { server.stop() }
        let script = #"""
            errors=$(mktemp); "$0" "$@" 2> "$errors" & run=$!
            for _ in $(seq 600); do
                pid=$(sed -n 's/^worker Payments: started (pid \([0-9]*\)).*/\1/p' "$errors" | head -n 1)
                grep -q 'total: loading → info' "$errors" && grep -q 'payment-method: loading → info' "$errors" \
                    && [ -n "$pid" ] && break
                sleep 0.1
            done
            kill -9 "$pid"; wait "$run"; status=$?; cat "$errors" >&2; rm -f "$errors"; exit "$status"
            """#
        let run = try await shell(
            script,
            [
                "checkout", "C100", "--pay", "--promo", "SAVE10", "--trace", "--timeout", "60", "--api",
                server.baseURL.absoluteString,
            ])
        #expect(
            run.stderr.contains(
                "worker Payments: crashed: Payments's worker was killed from outside the run (signal 9)"),
            "\(run.stderr)")
        #expect(!(run.status == 3 && run.stdout.contains("can be paid.")), "\(run.stdout)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("Paid SAR 45.45 with Visa •••• 4242: order 4242\n"))
        #expect((posts(log).first?["body"] as? String)?.contains(#""promo":"SAVE10""#) == true)
    }

    /// A currency echoed in lower case ("sar", as Stripe writes ISO codes) is the same currency: paid, exit 0.
    @Test func aLowerCaseCurrencyEchoIsTheSameCurrency() async throws {
        let folder = try TemporaryDirectory()
        let root = try tree(folder, ["carts/C100/_pay.post.json": #"{"order": "4242", "currency": "sar"}"#])
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let run = try await CLI.run(["checkout", "C100", "--pay", "--api", server.baseURL.absoluteString])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("Paid SAR 50.50 with Visa •••• 4242: order 4242\n"))
    }

    /// An attempt of unknown outcome older than the retention (24 h) is not resent under its key, which the
    /// backend may have dropped: exit 7, saying its age and how to settle it.
    @Test func anUnknownAttemptPastTheRetentionIsNotResent() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"carts/C100/pay": {"reset": true}}"#, log: log)
        defer { server.stop() }
        let arguments = [
            "checkout", "C100", "--pay", "--api", server.baseURL.absoluteString, "--data-dir",
            folder.url.appendingPathComponent("d").path,
        ]
        let first = try await CLI.run(arguments)
        #expect(first.status == 5)
        let later = try await CLI.run(arguments, extra: ["COURIER_NOW": "2027-01-17T08:01:00Z"])
        #expect(later.status == 7, "\(later.stdout)\(later.stderr)")
        // Sent in the first run's first seconds on the pinned clock, which runs on from 08:00:00 (a sanitized build
        // takes more than one of them).
        #expect(later.stdout.contains("was sent 2 days ago (2027-01-15T08:00:"), "\(later.stdout)")
        #expect(later.stdout.contains("Z) and has no known outcome"), "\(later.stdout)")
        #expect(later.stdout.contains("older than the 24 h a backend may keep its key, so it is not sent again"))
        #expect(posts(log).count == 1)
        let shorter = try await CLI.run(
            arguments + ["--attempt-retention", "60"], extra: ["COURIER_NOW": "2027-01-15T08:02:00Z"])
        #expect(shorter.status == 7 && shorter.stdout.contains("older than the 1 min"), "\(shorter.stdout)")
    }

    /// A retry that succeeds while the data folder cannot be written is still paid (exit 0), and says that its
    /// attempt file could not be marked settled and how to clean up.
    @Test func aPaymentWhoseAttemptCannotBeSettledSaysHowToCleanUp() async throws {
        let folder = try TemporaryDirectory()
        let root = try tree(folder, ["carts/C100/_faults.json": #"{"pay": {"reset": true}}"#])
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        // Beside the built products (as every run's data folder): a user who is not root must reach it, and the
        // temporary folder of a CI run is the run's alone.
        let data = CLI.dataHome.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let arguments = [
            "checkout", "C100", "--pay", "--api", server.baseURL.absoluteString, "--data-dir", data.path,
        ]
        let first = try await CLI.run(arguments)
        #expect(first.status == 5)
        try FileManager.default.removeItem(at: root.appendingPathComponent("carts/C100/_faults.json"))
        let attempts = data.appendingPathComponent("attempts")
        for file in try FileManager.default.contentsOfDirectory(atPath: attempts.path) {
            chmod(attempts.appendingPathComponent(file).path, 0o644)
        }
        chmod(attempts.path, 0o555)
        chmod(data.path, 0o755)
        chmod(CLI.dataHome.path, 0o755)
        defer { chmod(attempts.path, 0o700) }
        // Root writes through a folder's mode: the retry runs as nobody, for whom the folder is read-only.
        let retry =
            geteuid() == 0
            ? try await shell(#"exec setpriv --reuid=65534 --regid=65534 --clear-groups "$0" "$@""#, arguments)
            : try await CLI.run(arguments)
        #expect(retry.status == 0, "\(retry.stdout)\(retry.stderr)")
        #expect(retry.stdout.hasSuffix("Paid SAR 50.50 with Visa •••• 4242: order 4242\n"))
        #expect(retry.stderr.contains("the pay of cart C100 was done, but its attempt file "), "\(retry.stderr)")
        #expect(retry.stderr.contains("could not be marked settled (Permission denied)"))
        #expect(retry.stderr.contains("remove that file"))
    }

    /// A 2xx naming a promo that was not sent contradicts what was sent (no code was): never reported as paid.
    @Test func anAnswerNamingAPromoThatWasNotSentIsNeverWhatWasPaid() async throws {
        let folder = try TemporaryDirectory()
        let answer = #"{"order": "4242", "promo": "SAVE10", "discount_minor": 505}"#
        let root = try tree(folder, ["carts/C100/_pay.post.json": answer])
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let run = try await CLI.run(
            ["checkout", "C100", "--pay", "--format", "json", "--api", server.baseURL.absoluteString])
        #expect(run.status == 5, "\(run.stdout)\(run.stderr)")
        let report = try CLI.json(run.stdout)
        #expect(report["paid"] == nil)
        let action = report["action"] as? [String: Any] ?? [:]
        #expect(action["contradicted"] as? [String: String] == ["promo": "SAVE10"])
        #expect((action["reason"] as? String)?.contains("promo SAVE10 (sent none)") == true)
    }
}
