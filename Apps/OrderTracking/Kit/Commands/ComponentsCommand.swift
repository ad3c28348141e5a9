import CodeOwnership
import Foundation
import JSON
import TerminalUI

/// `components`: every registered component with its module, owning team (from CODEOWNERS) and endpoint.
struct ComponentsCommand {
    let json: Bool
    let host: HostEnvironment

    func run() -> ExitCode {
        let file = CodeOwners.locate(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let owners = file.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.map { CodeOwners(text: $0) }
        let rows = host.registry.registrations.map { registration in
            let owning = owners?.ownership(of: "Modules/\(registration.module)/README.md").owners ?? []
            return [
                registration.id.rawValue, registration.module, owning.isEmpty ? "-" : owning.joined(separator: " "),
                registration.endpoint,
            ]
        }
        if json {
            let keys = ["id", "module", "owner", "endpoint"]
            let objects = rows.map {
                JSONValue.object(Dictionary(uniqueKeysWithValues: zip(keys, $0.map(JSONValue.string))))
            }
            host.terminal.out(JSONValue.array(objects).text + "\n")
            return .ok
        }
        host.terminal.out(
            DisplayWidth.columns([["ID", "MODULE", "OWNER", "ENDPOINT"]] + rows).map { $0 + "\n" }.joined())
        if owners == nil {
            host.terminal.err(
                "note: CODEOWNERS not found from \(FileManager.default.currentDirectoryPath); owners shown as '-'")
        }
        return .ok
    }
}
