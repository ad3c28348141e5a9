import CoreTesting
import Foundation
import Testing

/// The host's screen tests check composition, not pixels: a demo order's plain screen must be its header and then,
/// in the layout's order, exactly the visible cards, each identical to the card its squad pinned in its own test
/// folder (`Tests/<Module>Tests/.goldens/<order>-<id>.txt`, owned by that squad in CODEOWNERS). A squad that
/// changes its card regenerates its own goldens (`Scripts/update-goldens MODULE`) and touches no platform file.
enum ScreenComposition {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every demo order with a layout, from the fixture tree (never a hard-coded list).
    static let demoOrders: [String] = {
        let folder = CLI.fixtures.appendingPathComponent("orders")
        let orders = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return orders.filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/screen.json").path)
        }.sorted()
    }()

    /// Every demo cart, from the fixture tree: the checkout screen's subjects.
    static let demoCarts: [String] = {
        let folder = CLI.fixtures.appendingPathComponent("carts")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }()

    /// One card as the host's JSON report describes it.
    struct Card {
        let id: String
        let module: String
        let hidden: Bool
    }

    /// Where a squad keeps the card it draws on a demo order's (or cart's) screen.
    static func golden(module: String, order: String, id: String) -> URL {
        root.appendingPathComponent("Tests/\(module)Tests/.goldens/\(order)-\(id).txt")
    }

    /// The cards of a plain frame, each as its lines (a card runs from a "╭" line to a "╰" line).
    static func cards(in frame: String) -> (header: [String], cards: [[String]]) {
        var header: [String] = []
        var cards: [[String]] = []
        var open = false
        for line in frame.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("╭") {
                cards.append([line])
                open = true
            } else if open {
                cards[cards.count - 1].append(line)
                if line.hasPrefix("╰") { open = false }
            } else if !line.isEmpty {
                header.append(line)
            }
        }
        return (header, cards)
    }

    /// `UPDATE_GOLDENS=all` or `=MODULE` (Scripts/update-goldens): write the cards instead of comparing them.
    static var updating: String? { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] }
}

/// In-process (Support.swift's `InProcess`: the real commands on captured streams and a virtual clock), so the
/// slow and live orders take milliseconds; `inProcessIsTheBinary` proves the two runs print the same.
@Suite struct ScreenCompositionTests {
    @Test(arguments: ScreenComposition.demoOrders)
    func demoOrderScreensAreTheSquadsCardsComposed(order: String) async throws {
        try await composed([order], subject: order, title: "Order \(order)")
    }

    /// The checkout of every demo cart, from the same squads' goldens; a cart whose critical card fails (C300)
    /// shows no survivors: exit 1, `"status": "failed"`, one stderr line.
    @Test(arguments: ScreenComposition.demoCarts)
    func demoCheckoutScreensAreTheSquadsCardsComposed(cart: String) async throws {
        let json = await InProcess.run(["checkout", cart, "--format", "json"])
        let report = try CLI.json(json.stdout)
        guard report["status"] as? String != "failed" else {
            let plain = await InProcess.run(["checkout", cart])
            #expect(json.status == 1 && plain.status == 1 && plain.stdout.isEmpty)
            #expect(plain.stderr.hasPrefix("Checkout \(cart) cannot be shown: ") && !plain.stderr.contains(" hidden: "))
            return
        }
        try await composed(["checkout", cart], subject: cart, title: "Checkout \(cart)")
    }

    /// `arguments`' screen: the header, then exactly the visible cards in order, each its squad's golden.
    func composed(_ arguments: [String], subject order: String, title: String) async throws {
        let json = await InProcess.run(arguments + ["--format", "json"])
        let report = try CLI.json(json.stdout)
        let cards = (report["components"] as? [[String: Any]] ?? []).map {
            ScreenComposition.Card(
                id: $0["id"] as? String ?? "?", module: $0["module"] as? String ?? "?",
                hidden: $0["hidden"] as? Bool ?? true)
        }
        let visible = cards.filter { !$0.hidden }
        let degraded = cards.contains { $0.hidden }
        #expect(json.status == (degraded ? 2 : 0), "exit status follows the screen: 2 when a card is hidden")
        #expect(report["status"] as? String == (degraded ? "degraded" : "complete"))

        let plain = await InProcess.run(arguments)
        #expect(plain.status == json.status)
        #expect(!plain.stdout.contains("\u{1B}"), "no escape codes when stdout is not a terminal")
        let (header, drawn) = ScreenComposition.cards(in: plain.stdout)
        #expect(header == [title])
        #expect(drawn.count == visible.count, "one card per visible component, none for a hidden one")
        #expect(!plain.stdout.contains("░"), "the final frame holds no skeleton")
        // Each hidden card is named once on stderr; besides, only skipped layout entries and refused event loops.
        let diagnostics = plain.stderr.split(separator: "\n").map(String.init)
        #expect(
            diagnostics.filter { $0.contains(" hidden: ") }.map { String($0.prefix { $0 != " " }) }
                == cards.filter(\.hidden).map(\.id))
        #expect(
            diagnostics.allSatisfy {
                $0.contains(" hidden: ") || $0.hasPrefix("skipping '") || $0.hasPrefix("event cycle refused: ")
            }, "\(diagnostics)")

        for (card, lines) in zip(visible, drawn) {
            let file = ScreenComposition.golden(module: card.module, order: order, id: card.id)
            let text = lines.joined(separator: "\n") + "\n"
            if let updating = ScreenComposition.updating {
                guard updating == "all" || updating == card.module else { continue }
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
                continue
            }
            guard let golden = try? String(contentsOf: file, encoding: .utf8) else {
                Issue.record(
                    "no golden for card '\(card.id)' on order \(order) (\(file.path)); run Scripts/update-goldens \(card.module)"
                )
                continue
            }
            #expect(
                text == golden,
                "card '\(card.id)' on order \(order) differs from its squad's golden \(file.lastPathComponent) (in place \(visible.firstIndex { $0.id == card.id }! + 1)); if \(card.module) changed the card on purpose: Scripts/update-goldens \(card.module)"
            )
        }
    }

    /// The in-process host is the binary: every demo order's screen, text and JSON (times aside), stdout, stderr
    /// and status alike, so what the in-process tests see is what a person sees.
    @Test func inProcessIsTheBinary() async throws {
        let times = try NSRegularExpression(pattern: #""elapsed_ms":[0-9]+"#)
        func timeless(_ text: String) -> String {
            times.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: #""elapsed_ms":0"#)
        }
        for order in ScreenComposition.demoOrders {
            for arguments in [[order], [order, "--format", "json"], ["cancel", order]] {
                let binary = try await CLI.run(arguments)
                let inProcess = await InProcess.run(arguments)
                #expect(inProcess.status == binary.status, "\(arguments)")
                #expect(timeless(inProcess.stdout) == timeless(binary.stdout), "\(arguments)")
                #expect(inProcess.stderr == binary.stderr, "\(arguments)")
            }
        }
    }
}
