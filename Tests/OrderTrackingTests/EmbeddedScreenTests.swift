import CoreTesting
import Foundation
import HostIO
import Testing

/// Screen composition for every demo order is checked in ScreenCompositionTests against the squads' own goldens;
/// these tests pin what the host decides: fatal errors, JSON shape, concurrency, deadlines, events, watch.
@Suite struct EmbeddedScreenTests {
    /// The layout's ids for a demo order, read from its fixture (so a squad adding its card changes no test).
    static func layoutIDs(_ order: String) throws -> [String] {
        let data = try Data(contentsOf: CLI.fixtures.appendingPathComponent("orders/\(order)/screen.json"))
        let layout = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (layout?["components"] as? [Any] ?? []).compactMap {
            ($0 as? String) ?? ($0 as? [String: Any])?["id"] as? String
        }
    }

    /// id → module, as `components --format json` lists the registry.
    static func modules() async throws -> [String: String] {
        let rows =
            try JSONSerialization.jsonObject(
                with: Data(await InProcess.run(["components", "--format", "json"]).stdout.utf8))
            as? [[String: Any]] ?? []
        return Dictionary(
            rows.map { ($0["id"] as? String ?? "", $0["module"] as? String ?? "") }, uniquingKeysWith: { $1 })
    }

    @Test func unknownOrderIsFatalWithAHint() async throws {
        let result = try await CLI.run(["9999"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "order '9999' not found (orders/9999/screen.json: 404); try the demo order 1234\n")
    }

    @Test func theDefaultOrderIsTheDemoOrder() async throws {
        let demo = try await CLI.run(["1234"])
        #expect(demo.stdout.hasPrefix("Order 1234\n"))
        #expect(try await CLI.run([]).stdout == demo.stdout)
    }

    @Test func jsonShapeForACompleteAndADegradedScreen() async throws {
        let complete = try CLI.json(await InProcess.run(["1234", "--format", "json"]).stdout)
        #expect(complete["order"] as? String == "1234")
        #expect(complete["status"] as? String == "complete")
        #expect(complete["elapsed_ms"] is Int)
        let entries = complete["components"] as? [[String: Any]] ?? []
        let ids = try Self.layoutIDs("1234")
        #expect(entries.map { $0["id"] as? String } == ids, "the layout's cards, in the layout's order")
        let modules = try await Self.modules()
        #expect(entries.map { $0["module"] as? String } == ids.map { modules[$0] })
        #expect(entries.allSatisfy { $0["state"] as? String == "info" && $0["hidden"] as? Bool == false })
        #expect(entries.allSatisfy { $0["reason"] is NSNull && $0["elapsed_ms"] is Int && $0["info"] is [String: Any] })

        let run = await InProcess.run(["5678", "--format", "json"])
        #expect(run.status == 2)
        let degraded = try CLI.json(run.stdout)
        #expect(degraded["status"] as? String == "degraded")
        let payment = (degraded["components"] as? [[String: Any]])?.first { $0["id"] as? String == "payment" }
        #expect(payment?["state"] as? String == "failed")
        #expect(payment?["hidden"] as? Bool == true)
        #expect((payment?["reason"] as? String)?.isEmpty == false)
        #expect(payment?["info"] is NSNull)
    }

    @Test func loadsAreConcurrentSoTheScreenTakesAsLongAsTheSlowestCard() async throws {
        let run = await InProcess.run(["9012", "--format", "json"])
        let entries = (try CLI.json(run.stdout))["components"] as? [[String: Any]] ?? []
        let elapsed = Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as! String, $0["elapsed_ms"] as! Int) })
        let slow = try #require(elapsed["delivery"])
        #expect(slow >= 1500)
        for fast in elapsed.keys where fast != "delivery" {
            #expect(try #require(elapsed[fast]) < slow, "\(fast) waited for delivery")
        }
        let total = try #require((try CLI.json(run.stdout))["elapsed_ms"] as? Int)
        #expect(total < slow + 1000)
    }

    @Test func traceLogsTransitionsAndEventHopsToStderr() async throws {
        let run = await InProcess.run(["7777", "--trace", "--plain"])
        #expect(run.stdout == (await InProcess.run(["7777", "--plain"])).stdout, "tracing changes nothing on stdout")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("] order: loading → info") })
        #expect(lines.contains { $0.hasSuffix("] event order.status=delivered: order → eta") })
        #expect(lines.contains { $0.hasSuffix("] event order.status=delivered: order → delivery") })
        #expect(lines.allSatisfy { $0.hasPrefix("[") })
    }

    @Test func aTightDeadlineHidesOnlyTheSlowCard() async throws {
        let run = await InProcess.run(["9012", "--timeout", "0.3", "--format", "json"])
        #expect(run.status == 2)
        let entries = (try CLI.json(run.stdout))["components"] as? [[String: Any]] ?? []
        let failed = entries.filter { $0["state"] as? String == "failed" }
        #expect(failed.map { $0["id"] as? String } == ["delivery"])
        #expect(failed.first?["reason"] as? String == "no answer within 0.3s")
        let total = try #require((try CLI.json(run.stdout))["elapsed_ms"] as? Int)
        #expect(total < 1500, "the screen finished without waiting for the 1.5 s answer")
    }

    /// A cycle between two real components: the rider reports the hand-over, Order marks the order delivered and
    /// says so on `order.status`, which would reach the rider card again. The host refuses that hop, names the
    /// loop on stderr, and both cards still settle (the rider's answer is delayed 300 ms so Order is first).
    @Test func aLoopBetweenRiderAndOrderIsRefusedAndNamedAndBothCardsSettle() async throws {
        let run = await InProcess.run(["6060", "--format", "json"])
        #expect(run.status == 0)
        #expect(run.stderr == "event cycle refused: delivery → order → delivery (order.status=delivered)\n")
        let report = try CLI.json(run.stdout)
        let cards = (report["components"] as? [[String: Any]]) ?? []
        let state = { (id: String) in cards.first { $0["id"] as? String == id }?["state"] as? String }
        #expect(state("order") == "info" && state("delivery") == "info")
        let order = cards.first { $0["id"] as? String == "order" }?["info"] as? [String: Any]
        #expect(order?["status"] as? String == "delivered")
        let text = await InProcess.run(["6060", "--plain"])
        #expect(text.status == 0 && !text.stdout.contains("░"))
    }

    /// `--promo CODE` applies a code through the Promo card: Payments shows the code, the discount and the new
    /// total, and its info carries the code; an unknown code is said on the promo card and changes nothing else.
    @Test func aPromoCodeReachesThePaymentCardWithoutPaymentsImportingPromo() async throws {
        let run = await InProcess.run(["1234", "--promo", "SAVE10", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let cards = try CLI.json(run.stdout)["components"] as? [[String: Any]] ?? []
        let info = { (id: String) in cards.first { $0["id"] as? String == id }?["info"] as? [String: Any] }
        #expect(info("promo")?["status"] as? String == "applied")
        let promo = info("payment")?["promo"] as? [String: Any]
        #expect(promo?["code"] as? String == "SAVE10")
        #expect((promo?["due"] as? [String: Any])?["minor"] as? Int == 4545, "SAR 50.50 less 10 %")
        #expect(cards.last?["id"] as? String == "promo", "the promo card joins the screen at its end")

        let unknown = await InProcess.run(["1234", "--promo", "NOPE42"])
        let plain = await InProcess.run(["1234"])
        #expect(unknown.status == 0 && unknown.stdout.contains("code NOPE42 is not recognised"))
        #expect(unknown.stdout.hasPrefix(plain.stdout.components(separatedBy: "╭─ Promo").first ?? "?"))
        #expect(!plain.stdout.contains("Promo"), "no promo card unless a code is given")
    }

    @Test func watchStopsOnceTheOrderIsDelivered() async throws {
        let run = await InProcess.run(["7777", "--watch", "--every", "0.2", "--plain"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", maxSplits: 1)
        #expect(lines.first?.hasPrefix("── 08:00:00 ") == true, "a watched frame is headed by its time")
        #expect(
            lines.last.map(String.init) == (await InProcess.run(["7777"])).stdout, "the last frame is the plain screen")
    }
}

@Suite struct CommandLineTests {
    @Test(arguments: [
        (["--fromat", "json"], "unknown option '--fromat'; did you mean '--format'?"),
        (["previw"], "unknown command 'previw'; did you mean 'preview'?"),
        (["logn", "1234"], "unknown command 'logn'; did you mean 'login'?"),
        (["../etc"], "invalid order id '../etc': use 1 to 64 letters, digits, '-' or '_'"),
        (["--timeout", "soon"], "--timeout 'soon' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"),
        (["--timeout", "1e-9"], "--timeout '1e-9' must be a number of seconds from 0.001 to 600"),
        (["--timeout", "0x10"], "--timeout '0x10' must be a number of seconds from 0.001 to 600 in plain decimal"),
        (["--timeout", "1_0"], "--timeout '1_0' must be a number of seconds from 0.001 to 600 in plain decimal"),
        (["--timeout", "+5"], "--timeout '+5' must be a number of seconds from 0.001 to 600 in plain decimal"),
        (["--timeout", "\u{FF15}"], "--timeout '\u{FF15}' must be a number of seconds from 0.001 to 600 in plain"),
        (["--plain", "chekout", "C100"], "unknown command 'chekout'; did you mean 'checkout'?"),
        (["--format", "jsn"], "--format 'jsn' must be text or json; did you mean 'json'?"),
        (["--api", "ftp://x"], "--api 'ftp://x' is not an http(s) URL like http://127.0.0.1:8080"),
        (["--api", "http://127.0.0.1:1/v1?key=1"], "--api 'http://127.0.0.1:1/v1?key=1' carries a query (?…)"),
        (["--api", "https://127.0.0.1:1#top"], "--api 'https://127.0.0.1:1#top' carries a query (?…) or a fragment"),
        (["1", "2"], "expected at most one ORDER-ID, got 2: 1 2 (see 'order-tracking --help')"),
        (["preview", "paymnt"], "unknown component 'paymnt'"),
        (
            ["preview", "payment", "--fail", "boom"],
            "--fail 'boom' must be notfound, http500, timeout, malformed"
        ),
        (
            ["--promo", "SAVE 10"],
            "--promo 'SAVE 10' is not a code: use 1 to 16 letters and digits"
        ),
        (["cancel"], "cancel needs one ORDER-ID (see 'order-tracking cancel --help')"),
        (["help", "cancle"], "no help for 'cancle'; did you mean 'cancel'?"),
    ])
    func usageErrorsExit64AndSayWhatWasWrong(arguments: [String], message: String) async throws {
        let run = try await CLI.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "stderr was: \(run.stderr)")
        #expect(run.stdout == "")
    }

    /// `COURIER_NOW` takes fractional seconds and any offset; anything else is one usage line, never a crash.
    @Test func aPinnedClockTakesFractionsAndRefusesWhatIsNotATime() async {
        let fraction = await InProcess.run(
            ["1234", "--format", "json"], extra: ["COURIER_NOW": "2027-01-15T11:00:00.750+03:00"])
        #expect(fraction.status == 0, "stderr: \(fraction.stderr)")
        for bad in ["tomorrow", "2027-01-15", "2027-01-15T08:00:00.x\u{1B}[2JZ"] {
            let run = await InProcess.run(["1234"], extra: ["COURIER_NOW": bad])
            #expect(run.status == 64 && run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("order-tracking: COURIER_NOW='"), "stderr: \(run.stderr)")
            #expect(!run.stderr.contains("\u{1B}"), "the variable's controls are shown, never sent")
        }
    }

    @Test func helpAndVersion() async throws {
        let help = try await CLI.run(["--help"])
        #expect(help.status == 0)
        for short in [["-h"], ["1234", "-h"], ["-h", "1234"]] {
            let run = try await CLI.run(short)
            #expect(run.status == 0 && run.stderr.isEmpty && run.stdout == help.stdout, "\(short)")
        }
        let checkout = try await CLI.run(["checkout", "C100", "-h"])
        #expect(checkout.status == 0 && checkout.stdout.hasPrefix("usage: order-tracking checkout CART-ID"))
        let early = try await CLI.run(["--timeout", "3", "--plain", "checkout", "C100"])
        #expect(early.status == 0 && early.stdout.contains("Checkout"), "\(early.stderr)")
        #expect(help.stdout.contains("order-tracking [ORDER-ID] [options]"))
        #expect(help.stdout.contains("64 usage error"))
        #expect(try await CLI.run(["help", "preview"]).stdout.contains("--fail notfound|http500|timeout|malformed"))
        #expect(try await CLI.run(["--version"]).stdout == "order-tracking 0.1.0\n")
    }
}

@Suite struct PreviewAndToolsTests {
    @Test func previewShowsOneComponentAloneInEveryState() async throws {
        let info = await InProcess.run(["preview", "payment"])
        #expect(info.status == 0)
        #expect(info.stdout.hasPrefix("payment · Payments · state: info\n"))
        let card = info.stdout.split(separator: "\n").dropFirst()
        #expect(card.first?.hasPrefix("╭") == true && card.last?.hasPrefix("╰") == true, "one whole card")
        let bug = await InProcess.run(["preview", "payment", "--order", "5678"])
        #expect(bug.status == 2)
        #expect(bug.stdout == "payment · Payments · state: failed\n(hidden: unexpected payload: missing key 'logo')\n")
        let loading = await InProcess.run(["preview", "eta", "--state", "loading"])
        #expect(loading.stdout.contains("░░░░"))
        let fault = await InProcess.run(["preview", "order", "--fail", "http500"])
        #expect(fault.stdout.contains("(hidden: orders/1234/details.json: server answered HTTP 500)"))
        let timeout = await InProcess.run(["preview", "order", "--fail", "timeout", "--timeout", "0.2"])
        #expect(timeout.stdout.contains("(hidden: no answer within 0.2s)"))
    }

    @Test func previewShowsACardsReactionToAnotherSquadsEvent() async throws {
        let eta = await InProcess.run([
            "preview", "eta", "--event", "order.status=delivered", "--event", "promo.applied=X",
        ])
        #expect(eta.status == 0)
        let lines = eta.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(3) == [
                "eta · Location · state: info", "order.status=delivered: updated",
                "promo.applied=X: no change (eta does not act on promo.applied now)",
            ])
        let payment = await InProcess.run(["preview", "payment", "--event", "order.status=delivered"])
        #expect(payment.stdout.contains("order.status=delivered: reloaded\n"))
        let bad = await InProcess.run(["preview", "eta", "--event", "delivered"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--event 'delivered' must be NAME=VALUE"))
    }

    @Test func previewTakesAPayloadFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("eta-\(UUID().uuidString).json")
        try Data(#"{"min_minutes": 5, "max_minutes": 5, "timezone": "Europe/Berlin"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = await InProcess.run(["preview", "eta", "--payload", file.path])
        #expect(run.status == 0 && run.stdout.hasPrefix("eta · Location · state: info\n"))
        #expect(
            run.stdout != (await InProcess.run(["preview", "eta"])).stdout,
            "the payload file, not the endpoint, was drawn")
    }

    @Test func componentsListsOwnersFromCodeowners() async throws {
        let run = try await ProcessRunner.run(
            CLI.binary, ["components", "--format", "json"], environment: CLI.environment,
            directory: CLI.fixtures.deletingLastPathComponent())
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: String]] ?? []
        #expect(Array(rows.map { $0["id"] }.prefix(4)) == ["order", "eta", "delivery", "payment"])
        #expect(rows.first { $0["id"] == "payment" }?["owner"] == "@courier/payments")
        #expect(rows.first { $0["id"] == "eta" }?["endpoint"] == "orders/{order}/eta.json")
    }

    @Test func cancelAsksEveryValidatingComponent() async throws {
        let allowed = await InProcess.run(["cancel", "3333"])
        #expect(allowed.status == 0)
        #expect(
            allowed.stdout
                == "order: ok\npayment: ok: refund SAR 50.50 to Visa •••• 4242\nOrder 3333 can be cancelled.\n")
        let vetoed = await InProcess.run(["cancel", "4040"])
        #expect(vetoed.status == 3)
        #expect(
            vetoed.stdout
                == "order: veto: Al Baik is already preparing this order, so it can't be cancelled.\npayment: ok: nothing was charged\nOrder 4040 can't be cancelled (1 veto).\n"
        )
        #expect(await InProcess.run(["cancel", "9999"]).status == 1)
    }

    /// Scripts get every verdict, reason and confirmation in one object, with the same exit status.
    @Test func cancelAsJSONCarriesVerdictsAndWhatTheConfirmationNeeds() async throws {
        let run = await InProcess.run(["cancel", "3333", "--format", "json"])
        // The same slots as the screen: the layout's unknown 'unregistered' card is named on stderr, as there.
        #expect(run.status == 0)
        #expect(run.stderr.split(separator: "\n").map { $0.hasPrefix("skipping 'unregistered'") } == [true])
        #expect(
            run.stdout
                == #"{"cancellable":true,"order":"3333","verdicts":[{"confirmation":null,"id":"order","reason":null,"verdict":"allow"},{"confirmation":{"facts":{"method":"Visa •••• 4242","refund":"SAR 50.50"},"summary":"refund SAR 50.50 to Visa •••• 4242"},"id":"payment","reason":null,"verdict":"allow"}],"vetoes":0}"#
                + "\n")
        let vetoed = try CLI.json(await InProcess.run(["cancel", "5678", "--format", "json"]).stdout)
        #expect(vetoed["cancellable"] as? Bool == false && vetoed["vetoes"] as? Int == 2)
        #expect(await InProcess.run(["cancel", "3333", "--format", "xml"]).status == 64)
    }
}

@Suite struct ProcessFaultTests {
    /// A reader that is already gone (`| head -1` that finished) must not kill the process with SIGPIPE or
    /// print an error: the output is simply not wanted any more. The status says it was not shown (1).
    @Test(arguments: [["1234"], ["5678", "--format", "json"], ["components"], ["--help"]])
    func aClosedPipeEndsQuietly(arguments: [String]) async throws {
        let output = Pipe()
        let errors = Pipe()
        try output.fileHandleForReading.close()
        let process = try ChildProcess.startForTest(
            [CLI.binary] + arguments, environment: CLI.environment, output: output.fileHandleForWriting,
            error: errors.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let (status, stderr) = await process.finish(reading: errors.fileHandleForReading)
        #expect(status != 128 + SIGPIPE, "killed by SIGPIPE")
        #expect(status == 1)
        #expect(!stderr.contains("Fatal error") && !stderr.contains("Broken pipe"), "\(stderr)")
        #expect(!stderr.contains("standard output"), "a closed pipe is quiet: \(stderr)")
    }

    @Test func aFullDiskSaysSoAndExits1() async throws {
        let errors = Pipe()
        let process = try ChildProcess.startForTest(
            [CLI.binary, "1234"], environment: CLI.environment,
            output: try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full")), error: errors.fileHandleForWriting)
        try errors.fileHandleForWriting.close()
        let (status, stderr) = await process.finish(reading: errors.fileHandleForReading)
        #expect(status == 1)
        #expect(
            stderr
                == "order-tracking: cannot write to standard output: No space left on device; free some space or write elsewhere\n"
        )
    }

    /// A watched screen notices that nobody reads it: the reader of its pipe going away or a full disk ends the
    /// run, in each mode outside a terminal (frames, NDJSON). Order 4040 (no rider, no ETA) with no round for an
    /// hour writes nothing after its first frames (1234 writes again at 15 s and every minute, as its ETA counts
    /// down), so only noticing can end the run: a watch that did not notice would run on until the limit kills
    /// it, and the limit (a minute, for what takes well under a second) says nothing about speed.
    static let quietWatches = [
        ["4040", "--watch", "--every", "3600"], ["4040", "--watch", "--every", "3600", "--format", "json"],
    ]

    /// The reader leaves once it has all the run writes at first (a frame; two NDJSON lines, as the payment card
    /// reloads once on the order's status), so no later write can end the run in its stead.
    @Test(arguments: zip(quietWatches, ["head -c 1", "head -n 2"]))
    func aWatchWhoseReaderLeftEndsQuietly(arguments: [String], reader: String) async throws {
        let command =
            "'\(CLI.binary)' \(arguments.joined(separator: " ")) | \(reader) >/dev/null; echo \"${PIPESTATUS[0]}\""
        let run = try await ProcessRunner.run(
            "bash", ["-c", command], environment: CLI.environment, limit: .seconds(60))
        #expect(run.stdout == "1\n", "the usual status for a closed pipe; stderr: \(run.stderr)")
        // Quiet about the pipe: stderr says only what it says without one (the two cards 4040 has no data for).
        #expect(run.stderr == (try await CLI.run(["4040"])).stderr, "\(run.stderr)")
    }

    @Test(arguments: quietWatches)
    func aWatchOnAFullDiskSaysSoAndExits1(arguments: [String]) async throws {
        let command = "'\(CLI.binary)' \(arguments.joined(separator: " ")) > /dev/full"
        let run = try await ProcessRunner.run(
            "bash", ["-c", command], environment: CLI.environment, limit: .seconds(60))
        #expect(run.status == 1)
        let hidden = (try await CLI.run(["4040"])).stderr.split(separator: "\n")
        #expect(
            run.stderr.split(separator: "\n").sorted()
                == (hidden + [
                    "order-tracking: cannot write to standard output: No space left on device; free some space or write elsewhere"
                ]).sorted(), "one line about the disk, besides the two cards 4040 has no data for: \(run.stderr)")
    }
}
