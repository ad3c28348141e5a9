import Core
import CoreTesting
import Foundation
import HostComposition
import HostIO
import InputRules
import PromoInterface
import ScreenRuntime
import ScreenSinks
import Testing

@testable import LiveScreen
@testable import OrderTrackingKit

/// The live screen's keys in-process, through the real host, runtime and squads on a virtual clock, with the
/// terminal's writes captured: what each key does to the screen a person sees.
@Suite struct LiveConsoleTests {
    final class Screen: Sendable {
        let written = Locked("")
        /// The last whole screen drawn (each redraw starts at the top left).
        var last: String { written.withLock { $0.components(separatedBy: "\u{1B}[H").last ?? "" } }
    }

    struct Live {
        let runtime: ScreenRuntime
        /// What the backend answered, one JSON line per fetch (`--record`).
        let record: URL
        let screen: Screen
        let clock: VirtualClock
        /// The keyboard: each batch is one read of the terminal.
        let keys: AsyncStream<[Key]>.Continuation
        /// The live screen's run, on the clock's executor.
        let running: Task<ScreenFrame, Never>

        /// Presses each key and waits until everything it started is waiting again (the clock does not move).
        func press(_ pressed: Key...) async {
            for key in pressed {
                keys.yield([key])
                await clock.settle()
            }
        }

        /// `q`: the live screen closes and its run returns.
        func close() async {
            keys.yield([.character("q")])
            _ = await running.value
        }

        /// How many times `path` was fetched.
        func count(_ path: String) -> Int {
            let lines = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
            return lines.split(separator: "\n").filter { $0.contains("\"endpoint\":\"\(path)\"") }.count
        }

        func info(_ id: ComponentID) -> String {
            let card = runtime.currentFrame(includingInfo: true).cards.first { $0.id == id }
            return card?.info.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    func live(
        _ order: String, screen name: String = "tracking", dataDir: String? = nil, record folder: TemporaryDirectory,
        replay: URL? = nil
    ) async throws -> Live {
        let screen = Screen()
        let streams = StandardStreams { descriptor, text in
            if descriptor == 1 { screen.written.withLock { $0 += text } }
        }
        let terminal = Terminal(environment: ["COLUMNS": "48"], noColorFlag: true, streams: streams)
        let clock = VirtualClock()
        // A file of its own per screen: a recording is one run's alone (a second open is refused while it is held).
        let record = folder.url.appendingPathComponent("record-\(UUID().uuidString).jsonl")
        let options = HostOptions(
            dataDir: dataDir, recording: RecordingFiles(record: replay == nil ? record.path : nil, replay: replay?.path)
        )
        let host = try HostEnvironment.make(
            options, environment: CLI.environment, terminal: terminal, clock: clock, workers: nil)
        let definition = try #require(HostEnvironment.embeddedDefinition(name))
        var watched = ScreenSettings(ids: [definition.inputs[0]: order])
        (watched.watch, watched.prompts) = (true, definition.prompts.map(\.prompt))
        watched.actions = definition.actions
        watched.attempts = host.attempts
        let settings = watched
        let runtime = try #require(
            await clock.drive {
                await host.runtime(
                    definition, settings: settings, analytics: nil, adding: definition.prompts.compactMap(\.card))
            } ?? nil)
        let console = LiveConsole(
            title: "\(name) \(order)", runtime: runtime, terminal: terminal,
            tabs: SessionTabs(container: host.tabs, store: host.store).console, skipping: [HostEnvironment.barCard])
        let (keys, feed) = AsyncStream<[Key]>.makeStream()
        let running = clock.start { await console.run(keys: keys) }
        await clock.settle()
        return Live(runtime: runtime, record: record, screen: screen, clock: clock, keys: feed, running: running)
    }

    @Test func aPromoCodeTypedOnTheScreenMakesPaymentsReloadWithTheDiscount() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("1234", record: folder)
        // Loaded, and reloaded once on the order's status (cash is collected at the door).
        let loads = live.count("orders/1234/payment.json")
        #expect(loads == 2)
        #expect(live.count("promos/SAVE10.json") == 0)
        await live.press(.character("p"), .character("s"), .character("a"), .character("v"), .character("e"))
        #expect(live.screen.last.contains("Promo code: save▏"))
        await live.press(.character("1"), .character("0"), .enter)
        #expect(live.info("promo").contains(#""status":"applied""#))
        #expect(live.info("payment").contains(#""code":"SAVE10""#), "the payment info carries the code")
        #expect(live.count("orders/1234/payment.json") == loads + 1, "Payments reloaded on promo.applied")
        #expect(live.count("promos/SAVE10.json") == 1, "the Promo card, and only it, looked the code up")
        #expect(live.screen.last.contains("Promo SAVE10") && live.screen.last.contains("SAR 45.45"))
        await live.press(.character("p"), .character("N"), .character("O"), .enter)
        #expect(live.screen.last.contains("code NO is not recognised"))
        #expect(live.info("payment").contains(#""code":"SAVE10""#), "an unknown code changes nothing else")
        await live.close()
    }

    @Test func cancelShowsTheSameWordsAsTheCancelCommandAndConfirmsOnlyWithoutVetoes() async throws {
        let folder = try TemporaryDirectory()
        let vetoed = try await live("4040", record: folder)
        await vetoed.press(.character("c"))
        let words = await InProcess.run(["cancel", "4040"]).stdout.split(separator: "\n").map(String.init)
        for line in words { #expect(vetoed.screen.last.contains(line.prefix(30)), "\(line)") }
        #expect(vetoed.screen.last.contains("Esc closes") && !vetoed.screen.last.contains("(y/n)"))
        await vetoed.press(.escape)
        #expect(!vetoed.screen.last.contains("Cancel"))
        await vetoed.close()

        let allowed = try await live("3333", record: folder)
        await allowed.press(.character("c"))
        #expect(
            allowed.screen.last.contains("Order 3333 can be cancelled.")
                && allowed.screen.last.contains("Cancel order? (y/n)"))
        await allowed.press(.character("y"))
        #expect(allowed.screen.last.contains("Cancel requested for order 3333"))
        await allowed.close()
    }

    /// The live demo order on the live screen, its whole timeline on the virtual clock (preparing, on the way, an
    /// outage of the payment endpoint from 25 s to 38 s, delivered at 55 s): every screen drawn is kept, so the
    /// outage is seen in what was drawn, never by a capture that has to land inside it. The card stays through
    /// the outage, marked "as of", and the mark goes; the run ends by itself once the order is delivered.
    @Test func theLiveDemoOrderIsDrawnFromPreparingToDeliveredWithTheOutageMarked() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("4242", record: folder)
        let ended = Locked(ScreenFrame?.none)
        _ = live.clock.start { [running = live.running] in
            let final = await running.value
            ended.withLock { $0 = final }
        }
        // An hour of virtual time at most; the order is delivered at 55 s.
        let end = live.clock.now().addingTimeInterval(3600)
        while true {
            await live.clock.settle()
            guard ended.withLock({ $0 == nil }), let next = live.clock.nextWake, next < end else { break }
            live.clock.advanceToNextDeadline()
        }
        let final = try #require(ended.withLock { $0 }, "the run did not end by itself")
        #expect(final.finished)
        let escapes = try NSRegularExpression(pattern: "\u{1B}\\[[0-9;?]*[A-Za-z]")
        let screens = live.screen.written.withLock { $0 }.components(separatedBy: "\u{1B}[H").map { text in
            escapes.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        }
        .filter { $0.contains("tracking 4242") && !$0.contains("░") }
        var statuses: [String] = []
        for screen in screens {
            guard let status = ["Preparing", "On the way", "Delivered"].first(where: { screen.contains($0) }) else {
                continue
            }
            if statuses.last != status { statuses.append(status) }
        }
        #expect(statuses == ["Preparing", "On the way", "Delivered"])
        let counts = Set(screens.map { ScreenComposition.cards(in: $0).cards.count })
        #expect(counts.count == 1, "no card hides, during the outage or after: \(counts)")
        let marked = screens.map { $0.contains("as of ") && $0.contains("stale") }
        let first = try #require(marked.firstIndex(of: true), "the outage marks the payment card")
        #expect(marked[first...].contains(false), "and the mark goes once it answers")
        #expect(screens.last?.contains("Delivered") == true)
    }

    @Test func rReloadsEveryCardOfAWatchedScreenAtOnceAndQAnswersQuit() async throws {
        let (watched, backend) = try ScreenRuntimeTests().harness("1234", every: .seconds(600))
        let screen = Screen()
        let terminal = Terminal(
            environment: [:], noColorFlag: true,
            streams: StandardStreams { _, text in screen.written.withLock { $0 += text } })
        let console = LiveConsole(
            title: "Order 1234", runtime: watched.runtime, terminal: terminal, tabs: .none)
        let (keys, feed) = AsyncStream<[Key]>.makeStream()
        let running = watched.clock.start { await console.run(keys: keys) }
        await watched.run(for: .seconds(1))
        let before = backend.count("orders/1234/details.json")
        feed.yield([.character("r"), .character("r"), .character("r")])
        await watched.run(for: .seconds(1))
        #expect(backend.count("orders/1234/details.json") == before + 1, "reloaded now, once, not at the 600 s round")
        #expect(screen.last.hasPrefix("Order 1234") && screen.last.contains("? keys · q quit"))
        feed.yield([.character("q")])
        let final = await running.value
        #expect(final.cards.allSatisfy { $0.visible }, "q ends the run with the screen as it was")
    }

    /// The live screen draws the frame it is handed: its keys line says when the screen last settled, on the
    /// runtime's clock, and a key that changes only what is open (the help) keeps that time; the next settle moves it.
    @Test func theUpdatedTimeIsTheSettledTimeTheFrameCarries() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("1234", record: folder)
        let settled = try #require(live.runtime.currentFrame().settledAt)
        #expect(live.screen.last.contains("updated \(ScreenOutput.clockTime(settled)) · ? keys · q quit"))
        await live.press(.character("?"))
        #expect(live.screen.last.contains("Keys") && live.screen.last.contains(ScreenOutput.clockTime(settled)))
        await live.press(.escape)
        live.clock.advance(by: .seconds(30))
        await live.press(.character("r"))
        let later = try #require(live.runtime.currentFrame().settledAt)
        #expect(later > settled.addingTimeInterval(29))
        #expect(live.screen.last.contains("updated \(ScreenOutput.clockTime(later))"))
        await live.close()
    }

    @Test func aCriticalCardsFailureSaysSoInsteadOfTheSurvivors() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("C300", screen: "checkout", record: folder)
        let shown = live.screen.last
        #expect(shown.contains("Can't show this screen (r retries): total: "), "\(shown)")
        #expect(!shown.contains("╭─ Cart"), "no survivors on a failed screen")
        await live.close()
    }

    @Test func payingOnTheLiveCheckoutAsksThenSendsOnceAndLeadsToTheNewOrder() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("C100", screen: "checkout", record: folder)
        // A method is chosen by its id (issue 66), as the live terminal's suite chooses it.
        await live.press(.character("m"), .character("c"), .character("a"), .character("s"), .character("h"), .enter)
        #expect(live.screen.last.contains("● Cash on delivery (cash)"), "\(live.screen.last)")
        await live.press(.character("P"))
        #expect(live.screen.last.contains("Pay SAR 50.50 with Cash on delivery? (y/n)"), "\(live.screen.last)")
        await live.press(.character("n"))
        #expect(!live.screen.last.contains("(y/n)"), "n closes it and nothing is sent")
        await live.press(.character("P"), .character("y"))
        let final = await live.running.value
        #expect(final.next == ScreenLink(screen: "tracking", inputs: final.next?.inputs ?? [:]))
        #expect(final.next?.inputs["order"] == "4242" && final.next?.inputs["method_id"] == "cash")
        if case .done(_, _, let line, "paid", _, nil)? = final.action {
            #expect(line == "Paid SAR 50.50 with Cash on delivery: order 4242")
        } else {
            Issue.record("not paid: \(String(describing: final.action))")
        }
    }

    /// The pay endpoint read the payment and dropped the connection (recorded over real HTTP, replayed here at
    /// once): the live screen's message line says the payment may have gone through and to check before paying
    /// again, never "failed", and the screen stays (there is no new order to follow).
    @Test func onTheLiveCheckoutAPaymentWithNoAnswerSaysItMayHaveGoneThrough() async throws {
        let folder = try TemporaryDirectory()
        let server = try TestServer.faults(root: CLI.fixtures, rules: #"{"carts/C100/pay": {"reset": true}}"#)
        defer { server.stop() }
        let recorded = folder.url.appendingPathComponent("recorded.jsonl")
        let paid = try await CLI.run(
            ["checkout", "C100", "--pay", "--record", recorded.path, "--api", server.baseURL.absoluteString])
        #expect(paid.status == 5)
        // Every answer at once: the virtual clock then never has to move for the replay.
        let lines = try String(contentsOf: recorded, encoding: .utf8).split(separator: "\n").map { line in
            line.replacingOccurrences(of: #""at_ms":[0-9]+"#, with: #""at_ms":0"#, options: .regularExpression)
        }
        let replay = folder.url.appendingPathComponent("replay.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: replay)
        let live = try await live("C100", screen: "checkout", record: folder, replay: replay)
        await live.press(.character("P"))
        #expect(live.screen.last.contains("(y/n)"), "\(live.screen.last)")
        await live.press(.character("y"))
        #expect(live.screen.last.contains("The payment may have gone through"), "\(live.screen.last)")
        #expect(!live.screen.last.contains("failed"))
        await live.close()
        let final = await live.running.value
        guard case .unknown(_, _, let line, _, _, _)? = final.action else {
            Issue.record("not unknown: \(String(describing: final.action))")
            return
        }
        #expect(line == "The payment may have gone through: check before paying again.")
        #expect(final.next == nil)
    }

    @Test func tabsShowTheirContentAndSignOutAsksFirst() async throws {
        let folder = try TemporaryDirectory()
        _ = await InProcess.run(["login", "1234", "--data-dir", folder.url.path])
        let live = try await live("1234", dataDir: folder.url.path, record: folder)
        await live.press(.right)
        #expect(live.screen.last.contains("▸ Profile"), "\(live.screen.last)")
        #expect(!live.screen.last.contains("╭─ Order"), "the Profile tab shows its screen, not the cards")
        await live.press(.character("1"))
        #expect(live.screen.last.contains("╭─ Order"))
        await live.press(.character("4"))
        #expect(live.screen.last.contains("Sign out? (y/n)"))
        await live.press(.character("y"))
        #expect(live.screen.last.contains("Signed out user 1234"))
        #expect(!live.screen.last.contains("Profile"), "signed out: the bar is Tracking alone")
        await live.close()
    }

    /// Someone signs in from another process (`order-tracking login` on the same data folder): the bar, the
    /// screen's state, shows their tabs at the next look on the runtime's clock, never before, the Feed's badge
    /// once it has loaded; a sign-out elsewhere takes them away at the look after.
    @Test func aSignInElsewhereIsNoticedAtTheNextLookAndItsBadgeFollows() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("1234", dataDir: folder.url.path, record: folder)
        #expect(live.screen.last.contains("▸ Tracking") && !live.screen.last.contains("Profile"), "\(live.screen.last)")
        _ = await InProcess.run(["login", "1234", "--data-dir", folder.url.path])
        await live.clock.settle()
        #expect(!live.screen.last.contains("Profile"), "not before the next look")
        live.clock.advance(by: SessionTabs.every)
        await live.clock.settle()
        #expect(live.screen.last.contains("▸ Tracking   Profile   Feed (3)   Sign out"), "\(live.screen.last)")
        _ = await InProcess.run(["logout", "--data-dir", folder.url.path])
        live.clock.advance(by: SessionTabs.every)
        await live.clock.settle()
        #expect(live.screen.last.contains("▸ Tracking") && !live.screen.last.contains("Profile"), "\(live.screen.last)")
        await live.close()
    }
}

/// The live screen's promo prompt and `--promo` agree on what a code may hold, character by character.
@Suite struct PromoPromptAgreementTests {
    @Test func thePromptAndTheOptionTakeTheSameCharacters() {
        let samples: [Character] =
            (0x20..<0x7F).compactMap { Unicode.Scalar($0).map(Character.init) }
            + ["é", "٣", "ｆ", "日", "🙂", "\u{200B}"]
        for character in samples {
            #expect(
                ConsolePrompt.mayBeTyped(character) == InputCode.accepts(String(character)), "\(character)")
        }
    }
}
