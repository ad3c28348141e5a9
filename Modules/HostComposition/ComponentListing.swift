import CodeOwnership
import Core
import Foundation
import HostIO
import JSON
import TerminalUI

/// A host's `components` command: every registered component with its module, owning team (from the CODEOWNERS
/// found from the working folder up) and endpoint, as columns or JSON. Any host with a registry lists it the same way.
public enum ComponentListing {
    /// Lists `registry` on `terminal`'s stdout (JSON when `json`); says on stderr when no CODEOWNERS was found.
    public static func show(_ registry: ComponentRegistry, json: Bool, terminal: Terminal) -> ExitCode {
        let file = CodeOwners.locate(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let owners = file.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.map { CodeOwners(text: $0) }
        let rows = registry.registrations.map { registration in
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
            terminal.out(JSONValue.array(objects).text + "\n")
            return .ok
        }
        terminal.out(DisplayWidth.columns([["ID", "MODULE", "OWNER", "ENDPOINT"]] + rows).map { $0 + "\n" }.joined())
        if owners == nil {
            terminal.err(
                "note: CODEOWNERS not found from \(FileManager.default.currentDirectoryPath); owners shown as '-'")
        }
        return .ok
    }
}
