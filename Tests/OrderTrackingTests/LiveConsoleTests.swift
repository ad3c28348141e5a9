import Core
import CoreTesting
import Faces
import Foundation
import HostIO
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
        let console: LiveConsole
        let runtime: ScreenRuntime
        /// What the backend answered, one JSON line per fetch (`--record`).
        let record: URL
        let screen: Screen
        let clock: VirtualClock

        func press(_ keys: Key...) async {
            for key in keys { _ = await clock.drive { await console.handle(key) } }
        }

        /// Ends the runtime's run (its frame consumer), as the live screen does when it closes.
        func close() async { _ = await clock.drive { await runtime.stop() } }

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

    func live(_ order: String, dataDir: String? = nil, record folder: TemporaryDirectory) async throws -> Live {
        let screen = Screen()
        let streams = StandardStreams { descriptor, text in
            if descriptor == 1 { screen.written.withLock { $0 += text } }
        }
        let terminal = Terminal(environment: ["COLUMNS": "48"], noColorFlag: true, streams: streams)
        let clock = VirtualClock()
        let record = folder.url.appendingPathComponent("record.jsonl")
        let options = HostOptions(
            dataDir: dataDir, recording: RecordingFiles(record: record.path, replay: nil))
        let host = try HostEnvironment.make(options, environment: CLI.environment, terminal: terminal, clock: clock)
        let runtime = try #require(
            await clock.drive {
                await host.runtime(
                    order: order, settings: ScreenSettings(ids: ["order": order]), analytics: nil, adding: ["promo"])
            } ?? nil)
        _ = await clock.drive { await runtime.open(loading: Array(runtime.registrations.indices)) }
        let console = LiveConsole(
            order: order, runtime: runtime, terminal: terminal, clock: clock, tabs: host.consoleTabs(),
            prompts: HostEnvironment.prompts, heard: { [promo = host.promo] in promo.hear($0) },
            skipping: [HostEnvironment.barCard])
        return Live(console: console, runtime: runtime, record: record, screen: screen, clock: clock)
    }

    @Test func aPromoCodeTypedOnTheScreenMakesPaymentsReloadWithTheDiscount() async throws {
        let folder = try TemporaryDirectory()
        let live = try await live("1234", record: folder)
        #expect(live.count("orders/1234/payment.json") == 1)
        await live.press(.character("p"), .character("s"), .character("a"), .character("v"), .character("e"))
        #expect(live.screen.last.contains("Promo code: save▏"))
        await live.press(.character("1"), .character("0"), .enter)
        #expect(live.info("promo").contains(#""status":"applied""#))
        #expect(live.info("payment").contains(#""code":"SAVE10""#), "the payment info carries the code")
        #expect(live.count("orders/1234/payment.json") == 2, "Payments reloaded on promo.applied")
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

    @Test func rReloadsEveryCardOfAWatchedScreenAtOnceAndQAnswersQuit() async throws {
        let (watched, backend) = try ScreenRuntimeTests().harness("1234", every: .seconds(600))
        let screen = Screen()
        let terminal = Terminal(
            environment: [:], noColorFlag: true,
            streams: StandardStreams { _, text in screen.written.withLock { $0 += text } })
        let console = LiveConsole(
            order: "1234", runtime: watched.runtime, terminal: terminal, clock: watched.clock, tabs: .none)
        watched.start()
        await watched.run(for: .seconds(1))
        let before = backend.count("orders/1234/details.json")
        #expect(await console.handle(.character("r")) == .reload)
        await watched.run(for: .seconds(1))
        #expect(backend.count("orders/1234/details.json") == before + 1, "reloaded now, not at the 600 s round")
        #expect(await console.handle(.character("q")) == .quit)
        #expect(screen.last.hasPrefix("Order 1234") && screen.last.contains("? keys · q quit"))
        _ = await watched.stop()
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
}

/// The live screen's promo prompt and `--promo` agree on what a code may hold, character by character.
@Suite struct PromoPromptAgreementTests {
    @Test func thePromptAndTheOptionTakeTheSameCharacters() {
        let samples: [Character] =
            (0x20..<0x7F).compactMap { Unicode.Scalar($0).map(Character.init) }
            + ["é", "٣", "ｆ", "日", "🙂", "\u{200B}"]
        for character in samples {
            #expect(
                ConsolePrompt.mayBeTyped(character) == PromoDiscount.isCode(String(character)), "\(character)")
        }
    }
}
