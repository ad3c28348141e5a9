import CoreTesting
import Foundation
import Login
import Storage
import Testing

@Suite struct StorageTests {
    /// Removed with the suite instance, so no test leaves a folder behind.
    let scratch = try! TemporaryDirectory()

    func store() -> UserStore {
        UserStore(directory: scratch.url.appendingPathComponent("store-\(UUID().uuidString)"))
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
        // A pid above any kernel's pid_max: its writer is gone. This process's own file belongs to a live writer.
        try Data("half".utf8).write(to: store.directory.appendingPathComponent(".user.json.2000000000.1.tmp"))
        let live = ".user.json.\(ProcessInfo.processInfo.processIdentifier).7.tmp"
        try Data("writing".utf8).write(to: store.directory.appendingPathComponent(live))
        try store.save(LoginSession(userID: "1", name: "A"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted() == [live, "user.json"])
    }

    @Test func dotDotInTheDataFolderLeavesNoStrayFolders() throws {
        let base = scratch.url.appendingPathComponent("dots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let store = UserStore(path: base.path + "/a/x/../y/../../z")
        try store.save(LoginSession(userID: "1", name: "A"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["z"])
        #expect(try store.storedSession()?.userID == "1")
    }

    @Test func directoryFollowsTheFlagThenXDGThenHomeAndNeverGuesses() {
        #expect(UserStore.defaultPath(dataDir: "/d", environment: [:]) == "/d")
        #expect(
            UserStore.defaultPath(dataDir: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/courier")
        #expect(
            UserStore.defaultPath(dataDir: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/courier")
        #expect(UserStore.defaultPath(dataDir: "", environment: ["HOME": "/h"]) == nil)
        #expect(UserStore.defaultPath(dataDir: nil, environment: ["XDG_DATA_HOME": "", "HOME": ""]) == nil)
    }

    @Test func everyFileProblemIsOneLineNamingThePathAndWhatToDo() throws {
        let folder = try TemporaryDirectory()
        try folder.write("x", to: "plain-file")
        let file = folder.url.appendingPathComponent("plain-file").path
        #expect(throws: StoreError.self) { try UserStore(path: file).save(LoginSession(userID: "1", name: "A")) }
        do {
            try UserStore(path: file).save(LoginSession(userID: "1", name: "A"))
        } catch {
            #expect(error.message == "\(file) is a file, not a folder; pass a folder with --data-dir")
        }
        do {
            try UserStore(path: file + "/below").save(LoginSession(userID: "1", name: "A"))
            Issue.record("a folder below a file cannot be created")
        } catch {
            #expect(error.message == "\(file) is a file, not a folder; pass a folder with --data-dir")
        }
        do {
            try UserStore(path: "/proc/courier-test").save(LoginSession(userID: "1", name: "A"))
            Issue.record("/proc takes no folders")
        } catch {
            #expect(error.message.hasPrefix("cannot create /proc/courier-test: "))
            #expect(error.message.hasSuffix("; pick another --data-dir"))
        }
    }
}
