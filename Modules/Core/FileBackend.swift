import Foundation

/// Serves a directory laid out like the HTTP API, with latency and faults declared in the tree itself:
/// a `_faults.json` beside the files maps a file name to `{"delay_ms": 1500, "status": 500, "hang": true, "body": "…"}`.
public struct FileBackend: Backend {
    /// One declared fault; every field is optional.
    struct Fault: Decodable {
        var delay_ms: Int?
        var status: Int?
        var hang: Bool?
        var body: String?
    }

    private let root: URL
    private let clock: any CourierClock

    /// Serves files below `root`; delays run on `clock`.
    public init(root: URL, clock: any CourierClock = SystemClock()) {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
        self.clock = clock
    }

    /// Reads the endpoint's file after applying its declared fault.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let path = endpoint.path
        guard !endpoint.segments.contains(where: { $0.hasPrefix("_") }) else { throw .notFound(path: path) }
        let file = endpoint.segments.reduce(root) { $0.appendingPathComponent($1) }
        let resolved = file.standardizedFileURL.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root.path + "/") else {
            throw .invalidRequest("\(path) resolves outside the served directory")
        }
        let fault = try faults(beside: file)[file.lastPathComponent]
        if let delay = fault?.delay_ms { try await sleep(.milliseconds(delay), path: path) }
        if fault?.hang == true { try await sleep(.seconds(86_400), path: path) }
        if let status = fault?.status, !(200..<300).contains(status) {
            throw status == 404 ? .notFound(path: path) : .httpStatus(status, path: path)
        }
        if let body = fault?.body { return Data(body.utf8) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .notFound(path: path)
        }
        do { return try Data(contentsOf: URL(fileURLWithPath: resolved)) } catch {
            throw .transport("cannot read fixture: \(error.localizedDescription)", path: path)
        }
    }

    private func sleep(_ duration: Duration, path: String) async throws(BackendError) {
        do { try await clock.sleep(for: duration) } catch { throw .transport("cancelled", path: path) }
    }

    private func faults(beside file: URL) throws(BackendError) -> [String: Fault] {
        let sidecar = file.deletingLastPathComponent().appendingPathComponent("_faults.json")
        guard let data = FileManager.default.contents(atPath: sidecar.path) else { return [:] }
        do { return try JSONDecoder().decode([String: Fault].self, from: data) } catch {
            throw .transport(
                "fixture tree is broken: \(sidecar.lastPathComponent) is not valid: \(error)", path: file.path)
        }
    }
}
