import Foundation
import Login
import Storage
import Testing

@Suite struct StorageTests {
    func store() -> UserStore {
        UserStore(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)"))
    }

    @Test func saveReadAndClear() throws {
        let store = store()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        #expect(try store.storedSession() == nil)
        let path = try store.save(LoginSession(userID: "1234", name: "Sara"))
        #expect(path.lastPathComponent == "user.json")
        #expect(try store.storedSession() == LoginSession(userID: "1234", name: "Sara"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == ["user.json"])
        #expect(try store.clear())
        #expect(try store.storedSession() == nil)
        #expect(try store.clear() == false)
    }

    @Test func hooksStoreOnSuccessAndClearOnFailure() async throws {
        let store = store()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let plugin = StoragePlugin(store: store)
        let session = LoginSession(userID: "1234", name: "Sara")
        #expect(plugin.announcement(for: session) == "Storing user with id 1234...")
        #expect(try await plugin.didLogIn(session) == "Stored user at \(store.file.path)")
        #expect(
            try await plugin.didFailLogIn(userID: "9", error: .userNotFound)
                == "Clear data because of error userNotFound")
        #expect(try store.storedSession() == nil)
    }

    @Test func aCorruptRecordIsAnErrorThatSaysWhatToDo() throws {
        let store = store()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try Data("{\"userID\": ".utf8).write(to: store.file)
        let error = #expect(throws: StoreError.self) { try store.storedSession() }
        #expect(error?.message.hasSuffix("is not a valid user record; run 'order-tracking logout'") == true)
    }

    @Test func staleTemporariesFromKilledWritersAreCleanedUp() throws {
        let store = store()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: store.directory.appendingPathComponent(".user.json.99.tmp"))
        try store.save(LoginSession(userID: "1", name: "A"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == ["user.json"])
    }

    @Test func directoryFollowsTheFlagThenXDGThenHome() {
        #expect(UserStore.defaultDirectory(dataDir: "/d", environment: [:]).path == "/d")
        #expect(
            UserStore.defaultDirectory(dataDir: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path
                == "/x/courier")
        #expect(
            UserStore.defaultDirectory(dataDir: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).path
                == "/h/.local/share/courier")
    }
}
