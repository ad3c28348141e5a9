import Core
import CoreTesting
import Foundation
import ScreenRuntime
import Testing

@testable import ScreenSinks

/// A payment's attempts on disk: one file per place, kept before the send, shared by runs, settled only by the
/// run whose key it holds.
@Suite struct AttemptFilesTests {
    let clock = VirtualClock()

    func request(_ minor: Int) throws -> ActionRequest {
        ActionRequest(
            action: "pay", endpoint: try Endpoint("carts", "C1", "pay"),
            intent: ["amount_minor": .integer(minor), "cart": .text("C1")], words: [:])
    }

    func ledger(_ folder: TemporaryDirectory, new: Bool = false, backend: String = "embedded") -> AttemptFiles {
        AttemptFiles(dataFolder: folder.url.path, backend: backend, newAttempt: new, clock: clock)
    }

    @Test func runsAgreeOnOneAttemptUntilItsOwnRunSettlesIt() throws {
        let folder = try TemporaryDirectory()
        let (one, two) = (ledger(folder), ledger(folder))
        let key = try one.begin(try request(5050))
        #expect(AttemptFiles.isKey(key))
        #expect(try two.begin(try request(5050)) == key, "another run resends the same attempt")
        #expect(throws: AttemptRefusal.self) { try two.begin(try request(4545)) }
        two.abandon(try request(5050))
        #expect(try one.begin(try request(5050)) == key, "a run that did not make it cannot abandon it")
        // A third run replaces it (--new-attempt); the first run's late settle must not forget the new one.
        let replaced = try ledger(folder, new: true).begin(try request(4545))
        #expect(replaced != key)
        one.settle(try request(5050))
        #expect(try two.begin(try request(4545)) == replaced)
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
