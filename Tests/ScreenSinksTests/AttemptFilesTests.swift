import Core
import CoreTesting
import Foundation
import ScreenRuntime
import Testing

@testable import ScreenSinks

/// A payment's attempts on disk: one file per subject (the action and the cart), kept before the send, shared by
/// runs, settled only by the run whose key it holds, and kept with its answer for the retention period.
@Suite struct AttemptFilesTests {
    let clock = VirtualClock()
    let paid = KeptAnswer(fields: ["order": "4242"], unread: nil)

    func request(_ minor: Int, to path: [String] = ["carts", "C1", "pay"], cart: String = "C1") throws
        -> ActionRequest
    {
        ActionRequest(
            action: "pay", endpoint: try Endpoint(segments: path),
            intent: ["amount_minor": .integer(minor), "cart": .text(cart)], words: [:], subject: ["cart": cart])
    }

    func ledger(
        _ folder: TemporaryDirectory, new: Bool = false, backend: String = "embedded",
        retention: Duration = AttemptFiles.defaultRetention
    ) -> AttemptFiles {
        AttemptFiles(
            dataFolder: folder.url.path, backend: backend, newAttempt: new, clock: clock, retention: retention)
    }

    func key(_ start: AttemptStart) throws -> String {
        guard case .send(let key) = start else {
            Issue.record("expected a send, got \(start)")
            return ""
        }
        return key
    }

    @Test func runsAgreeOnOneAttemptUntilItsOwnRunSettlesIt() throws {
        let folder = try TemporaryDirectory()
        let (one, two) = (ledger(folder), ledger(folder))
        let first = try key(try one.begin(try request(5050)))
        #expect(AttemptFiles.isKey(first))
        #expect(try key(try two.begin(try request(5050))) == first, "another run resends the same attempt")
        #expect(throws: AttemptRefusal.self) { try two.begin(try request(4545)) }
        two.abandon(try request(5050))
        #expect(try key(try one.begin(try request(5050))) == first, "a run that did not make it cannot abandon it")
        // While the first run awaits its answer, no new attempt goes out (--new-attempt is refused); once it is
        // settled, a third run may replace it, and the first run's late settle must not touch the new one.
        #expect {
            try ledger(folder, new: true).begin(try request(4545))
        } throws: { error in
            guard case .pending(let line) = error as? AttemptRefusal else { return false }
            return line.contains("another run is sending a pay of cart C1 now")
        }
        try one.settle(try request(5050), answer: paid)
        let replaced = try key(try ledger(folder, new: true).begin(try request(4545)))
        #expect(replaced != first)
        try one.settle(try request(5050), answer: paid)
        #expect(try key(try two.begin(try request(4545))) == replaced)
    }

    /// Several --new-attempt runs at once: one new attempt goes out, the others wait for it.
    @Test func ofNewAttemptsAtOnceOnlyOneGoes() throws {
        let folder = try TemporaryDirectory()
        let (one, two) = (ledger(folder, new: true), ledger(folder, new: true))
        _ = try key(try one.begin(try request(5050)))
        #expect(throws: AttemptRefusal.self) { try two.begin(try request(4545)) }
        #expect(throws: AttemptRefusal.self, "nor a run resending") { try ledger(folder).begin(try request(5050)) }
        try one.settle(try request(5050), answer: paid)
        guard case .answered = try ledger(folder).begin(try request(5050)) else {
            Issue.record("once settled, the same request is answered from it")
            return
        }
    }

    /// The attempt is what is paid, not where it is sent: a send path with the method in it is still one attempt
    /// per cart, so a second method for the same cart waits for the first's outcome.
    @Test func oneSubjectIsOneAttemptWhateverThePlace() throws {
        let folder = try TemporaryDirectory()
        let visa = try request(5050, to: ["carts", "C1", "pay", "visa4242"])
        let cash = try request(5050, to: ["carts", "C1", "pay", "cash"])
        _ = try key(try ledger(folder).begin(visa))
        #expect(throws: AttemptRefusal.self) { try ledger(folder).begin(cash) }
        let other = try request(5050, to: ["carts", "C2", "pay", "cash"], cart: "C2")
        #expect(try AttemptFiles.isKey(key(try ledger(folder).begin(other))), "another cart is another subject")
    }

    /// A settled attempt is kept with its answer: the same request again is answered from it, never sent under a
    /// new key; another request for the same cart is refused; after the retention period it answers nothing but
    /// still refuses paying the cart again, unless on purpose.
    @Test func aSettledAttemptAnswersTheSameRequestUntilItsRetentionEnds() throws {
        let folder = try TemporaryDirectory()
        let run = ledger(folder, retention: .seconds(3_600))
        _ = try key(try run.begin(try request(5050)))
        try run.settle(try request(5050), answer: paid)
        guard case .answered(let answer, _) = try ledger(folder, retention: .seconds(3_600)).begin(try request(5050))
        else {
            Issue.record("the same payment again is answered from the kept attempt")
            return
        }
        #expect(answer == paid)
        #expect {
            try ledger(folder, retention: .seconds(3_600)).begin(try request(4545))
        } throws: { error in
            guard case .pending(let line) = error as? AttemptRefusal else { return false }
            return line.contains("an earlier pay of cart C1 went through at") && line.contains("--new-attempt")
        }
        let again = ledger(folder, new: true, retention: .seconds(3_600))
        #expect(try AttemptFiles.isKey(key(try again.begin(try request(5050)))), "paying again on purpose")
        try again.settle(try request(5050), answer: paid)
        clock.advance(by: .seconds(3_601))
        for amount in [5050, 4545] {
            #expect {
                try ledger(folder, retention: .seconds(3_600)).begin(try request(amount))
            } throws: { error in
                guard case .pending(let line) = error as? AttemptRefusal else { return false }
                return line.contains("longer ago than the 60 min it is kept to answer the same again")
                    && line.contains("--new-attempt")
            }
        }
        #expect(try AttemptFiles.isKey(key(try ledger(folder, new: true).begin(try request(4545)))))
    }

    /// An attempt of unknown outcome older than the retention is not resent (the backend may have dropped its
    /// key): refused, with its age and how to settle it.
    @Test func anUnknownAttemptPastTheRetentionIsNotResent() throws {
        let folder = try TemporaryDirectory()
        _ = try key(try ledger(folder).begin(try request(5050)))
        clock.advance(by: .seconds(2 * 86_400 + 60))
        #expect {
            try ledger(folder).begin(try request(5050))
        } throws: { error in
            guard case .pending(let line) = error as? AttemptRefusal else { return false }
            return line.contains("was sent 2 days ago") && line.contains("older than the 24 h")
                && line.contains("--new-attempt") && line.contains("/attempts/")
        }
    }

    /// An attempt an earlier version kept under the place it was sent is still honoured: the same request takes
    /// it over under its key, another is refused.
    @Test func anAttemptKeptByAnEarlierVersionIsHonoured() throws {
        let folder = try TemporaryDirectory()
        let attempts = folder.url.appendingPathComponent("attempts")
        try FileManager.default.createDirectory(at: attempts, withIntermediateDirectories: true)
        let body = try request(5050).body.base64EncodedString()
        let legacyKey = "0a1b2c3d-0000-4000-8000-00000000abcd"
        let name = SHA256.hex(Data("embedded\ncarts/C1/pay".utf8)).prefix(32)
        try Data(
            #"{"endpoint":"carts/C1/pay","backend":"embedded","body_base64":"\#(body)","key":"\#(legacyKey)","at":"\#(clock.now().formatted(.iso8601))","action":"pay"}"#
                .utf8
        ).write(to: attempts.appendingPathComponent("\(name).json"))
        let old = ledger(folder)
        #expect(throws: AttemptRefusal.self) { try old.begin(try request(4545)) }
        #expect(try key(try old.begin(try request(5050))) == legacyKey)
    }

    @Test func aFileThisToolDidNotWriteIsNeverAYes() throws {
        let folder = try TemporaryDirectory()
        let files = ledger(folder)
        _ = try files.begin(try request(1))
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/attempts").first)
        let path = folder.url.path + "/attempts/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let bad = text.replacingOccurrences(
            of: #""key":"[^"]*""#, with: #""key":"a\r\nb""#, options: .regularExpression)
        try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: AttemptRefusal.self, "an unreadable attempt stops the send") {
            try ledger(folder).begin(try request(1))
        }
    }

    /// The retention README and the checkout's help give is the code's (a number in a doc is checked or not
    /// written).
    @Test func theDocumentedRetentionIsTheCodes() throws {
        #expect(AttemptFiles.defaultRetention == .seconds(86_400))
        #expect(AttemptFiles.age(86_400) == "24 h" && AttemptFiles.age(2 * 86_400 + 60) == "2 days")
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("default 86400: 24 h"))
    }

    @Test func oneBackendHowever_apiSpellsIt() throws {
        let names = try ["http://127.0.0.1:8080", "HTTP://127.0.0.1:8080/", "http://127.0.0.1:8080//"].map {
            AttemptFiles.backend(try #require(URL(string: $0)))
        }
        #expect(Set(names) == ["http://127.0.0.1:8080"])
        #expect(
            AttemptFiles.backend(try #require(URL(string: "https://Pay.Example/api//v1/")))
                == "https://pay.example:443/api/v1")
    }
}
