import Foundation
import SquadKit
import Testing

/// `squad check` formats a new module before `git add`: git folds an untracked folder into one entry
/// (`Modules/B/`), which is no Swift file, so a module `squad new` had just written passed "format ok" with four
/// line-length errors in it. Its files are listed one by one.
@Suite struct CheckUntrackedTests {
    @Test func aBadlyFormattedFileInANewFolderFailsCheckAndIsNamed() async throws {
        let repo = try await GitRepository.package(
            checks: "format\tfast\tswift format lint --strict --recursive Modules\n")
        let long = "public let tooLong = \"" + String(repeating: "x", count: 120) + "\"\n"
        try repo.write("Modules/B/Sources/Deep/B.swift", long)
        let check = await repo.squad(["check"])
        #expect(check.status == 1, "\(check.output)\(check.errors)")
        #expect(
            check.output.contains(
                "format    FAILED (1 changed Swift file(s), exit 1): run swift format lint --strict "
                    + "'Modules/B/Sources/Deep/B.swift'\n"), "\(check.output)")
        #expect(check.errors.contains("Modules/B/Sources/Deep/B.swift:1:"), "\(check.errors)")
    }
}
