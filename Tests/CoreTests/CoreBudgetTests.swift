import Foundation
import Testing

/// Core is the contract only: it stays small enough to read in one sitting (ARCHITECTURE.md §1, Core's README).
@Suite struct CoreBudgetTests {
    /// Code lines as the README counts them: neither blank nor only a comment (`grep -cvE '^\s*(//.*)?$'`).
    static func codeLines(_ text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return !trimmed.isEmpty && !trimmed.hasPrefix("//")
        }.count
    }

    @Test func coreIsAtMost650CodeLines() throws {
        let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Modules/Core")
        // Every Swift file under the folder, in subfolders too (as RoomFigureTests counts the host's Kit).
        let files = (FileManager.default.enumerator(atPath: core.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let total = try files.reduce(0) { sum, file in
            sum + Self.codeLines(try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8))
        }
        #expect(total <= 650, "Core has \(total) code lines")
    }

    @Test func blankAndCommentLinesDoNotCount() {
        #expect(Self.codeLines("let a = 1\n\n   // note\n/// doc\n\tlet b = 2 // tail\n") == 2)
    }
}
