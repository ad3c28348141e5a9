import CoreTesting
import Foundation
import Testing

@testable import SquadKit

/// Standard input is bounded like files: a runaway pipe is one line and exit 2, never a failed allocation.
@Suite struct BoundedInputTests {
    @Test(arguments: [
        "owners -", "gate --base HEAD --reviews -", "gate --base HEAD --files -", "affected --base HEAD --files -",
    ])
    func aFloodOnStandardInputIsRefusedWithOneLine(command: String) async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try await repo.commit("base")
        let squad = ProcessRunner.productsDirectory.appendingPathComponent("squad").path
        let flood = "head -c \(BoundedInput.limit + (1 << 20)) /dev/zero 2>/dev/null | '\(squad)' \(command)"
        let run = try await ProcessRunner.run("bash", ["-c", flood], directory: repo.root, limit: .seconds(120))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(
            run.stderr == "squad: standard input is larger than 256 MB, the most squad reads; give a smaller input\n")
        #expect(run.stdout.isEmpty)
    }

    @Test func inputUpToTheCapIsReadWholeInPieces() throws {
        let pipe = Pipe()
        let text = String(repeating: "Modules/Payments/Pay.swift\n", count: 100_000)
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(text.utf8)); try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let data = try BoundedInput.read(descriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin")
        #expect(data == Array(text.utf8))
        let small = Pipe()
        small.fileHandleForWriting.write(Data("12345".utf8))
        try small.fileHandleForWriting.close()
        #expect(throws: ShellError.self) {
            try BoundedInput.read(descriptor: small.fileHandleForReading.fileDescriptor, name: "stdin", limit: 4)
        }
    }
}
