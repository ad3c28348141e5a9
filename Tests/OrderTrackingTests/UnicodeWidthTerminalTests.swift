import CoreTesting
import Foundation
import Testing

/// Cards holding every script, drawn by a real terminal (tmux, 80 columns, so cards are 64 wide). Once the command
/// ends, the shell writes ">" in column 65 of every row with absolute cursor addressing, which tmux places by its
/// own count of columns: a card row whose right border is in the card's last column reads "│>" in capture-pane;
/// one a column short reads "│ >", one a column long lost its border under the marker. tmux 3.3a (Debian 12's)
/// counts code points (an emoji + VS16 one column, a skin tone on a text-default base three), tmux 3.4 and later
/// follow UTS #51: the screen asks the terminal (WidthProbe) and lays out as it answers, so both pass.
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct UnicodeWidthTerminalTests {
    static let rows = 44

    /// Clears the screen, runs order-tracking with `arguments`, then marks column 65 of rows 1...rows.
    func command(_ arguments: String) -> String {
        "printf '\\033[H\\033[2J'; env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) "
            + "\(arguments); \(markers)"
    }

    /// The markers in column 65 of rows 1...rows, then DONE below them.
    var markers: String {
        "for row in $(seq 1 \(Self.rows)); do printf '\\033[%d;65H>' $row; done; "
            + "printf '\\033[\(Self.rows + 1);1HDONE'; " + TmuxSession.hold
    }

    /// The card rows of a captured screen whose border is not in column 64 (the marker right after it).
    func misplacedBorders(_ screen: String) -> [String] {
        screen.split(separator: "\n").prefix(Self.rows).map(String.init).filter { line in
            guard let first = line.first, "╭│╰".contains(first) else { return false }
            return !(line.hasSuffix("╮>") || line.hasSuffix("│>") || line.hasSuffix("╯>"))
        }
    }

    func cardRows(_ screen: String) -> Int {
        screen.split(separator: "\n").prefix(Self.rows).filter { $0.first.map { "╭│╰".contains($0) } ?? false }.count
    }

    /// Runs `arguments` in tmux; the final screen.
    func draw(_ arguments: String) async throws -> String {
        let session = try await TmuxSession(command: command(arguments))
        let screen = try await session.waitFor(.seconds(60)) { $0.contains("DONE") }
        #expect(screen.contains("DONE"), "the command ran to its end: \(screen)")
        return screen
    }

    /// Every kind of cluster terminals disagree on, and the scripts that never moved a border.
    static let everyKind = [
        "寿司 Sushi 𛅰 𛀀", "︐﹐〈〉ꥠ🈀 forms", "🕳 🐿 🌡 🖐 pictographs", "का कि की हिंदी", "กำ ไทย น้ำ",
        "a\u{200B}b\u{200E}c\u{2060}d\u{2061}e\u{206F} x\u{E0041}\u{E007F}", "مطعم البيك", "عُمَر مُحَمَّد",
        "👨\u{200D}👩\u{200D}👧 🇸🇦 🍕", "Love \u{2764}\u{FE0F} \u{263A}\u{FE0F}",
        "#\u{FE0F}\u{20E3} 1\u{FE0F}\u{20E3} keycaps", "☝🏻 ✌🏽 👍🏻 skin tones", "⌚\u{FE0E} text",
    ]

    /// An order's details naming `items` (the Order card's payload and details.json alike).
    func details(restaurant: String = "𗀀𗀁 寿司 مطعم ❤️", _ items: [String]) -> Data {
        let rows = items.map { #"{"name": "\#($0)", "quantity": 1, "unit_price": {"minor": 950, "currency": "SAR"}}"# }
        return Data(
            (#"{"restaurant": {"name": "\#(restaurant)", "logo": "a.png"}, "items": ["#
                + rows.joined(separator: ", ") + #"], "status": "preparing"}"#).utf8)
    }

    func payload(restaurant: String = "𗀀𗀁 寿司 مطعم ❤️", _ items: [String]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString).json")
        try details(restaurant: restaurant, items).write(to: file)
        return file
    }

    /// CJK, Tangut, Nüshu, the vertical and small forms, text-default pictographs, Devanagari spacing marks,
    /// Thai, zero-width characters, Arabic with and without harakat, a ZWJ family, a flag, emoji with VS16,
    /// keycaps, skin tones and VS15: every border in the last column, whichever way this tmux counts.
    @Test func aCardInEveryScriptKeepsItsBordersInTheLastColumn() async throws {
        let file = try payload(Self.everyKind)
        defer { try? FileManager.default.removeItem(at: file) }
        let screen = try await draw("preview order --payload \(file.path)")
        #expect(cardRows(screen) >= 16, "the card is on screen: \(screen)")
        #expect(screen.contains("مطعم البيك") && screen.contains("กำ ไทย") && screen.contains("keycaps"))
        #expect(misplacedBorders(screen).isEmpty, "\(misplacedBorders(screen))\n\(screen)")
    }

    /// A screen painted in place (the one-shot painter: skeletons first, then the cards) over real HTTP, its
    /// order's details in every kind: the first frame is drawn before the terminal answers, and the frame the
    /// run ends with is laid out as the terminal draws.
    @Test func aPaintedScreenInEveryKindEndsWithEveryBorderInPlace() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("widths-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        try details(Self.everyKind).write(to: root.appendingPathComponent("orders/7777/details.json"))
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let screen = try await draw("7777 --api \(server.baseURL.absoluteString)")
        #expect(screen.contains("keycaps") && screen.contains("skin tones"), "\(screen)")
        #expect(!screen.contains("░"), "every card loaded: \(screen)")
        #expect(misplacedBorders(screen).isEmpty, "\(misplacedBorders(screen))\n\(screen)")
    }

    /// The live screen (`--watch` on a terminal) asks through its key reader: the answers press no key (the
    /// screen stays until `q`), and the frame it leaves on the main screen keeps every border in place.
    @Test func theLiveScreenAsksWithItsKeysAndLeavesEveryBorderInPlace() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("widths-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        try details(Self.everyKind).write(to: root.appendingPathComponent("orders/7777/details.json"))
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let session = try await TmuxSession(
            command: command("7777 --watch --every 30 --api \(server.baseURL.absoluteString)"))
        let live = try await session.waitFor { $0.contains("q quit") && $0.contains("keycaps") && !$0.contains("░") }
        #expect(live.contains("q quit") && !live.contains("DONE"), "the answers were no key:\n\(live)")
        try await session.tmux(["send-keys", "-t", session.name, "q"])
        let screen = try await session.waitFor { $0.contains("DONE") }
        #expect(screen.contains("keycaps") && cardRows(screen) >= 16, "\(screen)")
        #expect(misplacedBorders(screen).isEmpty, "\(misplacedBorders(screen))\n\(screen)")
    }

    /// The Riyadh demo order 7777: the restaurant's Arabic name without harakat and the rider's with them.
    @Test func theArabicDemoOrderLaysOutExactly() async throws {
        let screen = try await draw("7777")
        #expect(screen.contains("البيك") && screen.contains("عُمَر"), "\(screen)")
        #expect(cardRows(screen) >= 20, "the whole screen is there: \(screen)")
        #expect(misplacedBorders(screen).isEmpty, "\(misplacedBorders(screen))\n\(screen)")
    }
}
