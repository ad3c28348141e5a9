import Foundation
import SquadKit
import Testing

@Suite struct GateTests {
    static let codeowners = """
        *                     @courier/platform
        /Modules/Payments/    @courier/payments
        /Modules/Order/       @courier/order
        /generated/
        """

    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write("CODEOWNERS", Self.codeowners)
        try repo.write("Modules/Payments/Pay.swift")
        try repo.write("Modules/Order/Order.swift")
        try repo.write("generated/blob.bin")
        try repo.write("README.md")
        try repo.commit("base")
        try repo.git("checkout", "-q", "-b", "pr")
        return repo
    }

    @Test func anOwnersApprovalLetsAChangeMerge() throws {
        let repo = try repository()
        try repo.write("Modules/Payments/Pay.swift", "changed\n")
        try repo.commit("change payments")
        let blocked = repo.squad(["gate", "--base", "main"])
        #expect(blocked.status == 1)
        #expect(blocked.output.contains("Modules/Payments/Pay.swift\tneeds one of @courier/payments"))
        #expect(
            blocked.output.contains("blocked: missing approvals:\n  @courier/payments for Modules/Payments/Pay.swift"))
        let approved = repo.squad(["gate", "--base", "main", "--approved-by", "@courier/payments"])
        #expect(approved.status == 0)
        #expect(approved.output.contains("may merge: 1 changed path(s)"))
        let wrongTeam = repo.squad(["gate", "--base", "main", "--approved-by", "@courier/order"])
        #expect(wrongTeam.status == 1)
    }

    @Test func aRenameNeedsBothTheOldAndTheNewOwners() throws {
        let repo = try repository()
        try repo.git("mv", "Modules/Payments/Pay.swift", "Modules/Order/Pay.swift")
        try repo.commit("move")
        let one = repo.squad(["gate", "--base", "main", "--approved-by", "@courier/order"])
        #expect(one.status == 1)
        #expect(one.output.contains("@courier/payments for Modules/Payments/Pay.swift"))
        let both = repo.squad([
            "gate", "--base", "main", "--approved-by", "@courier/order", "--approved-by", "@courier/payments",
        ])
        #expect(both.status == 0)
    }

    @Test func aDeletionCounts() throws {
        let repo = try repository()
        try repo.git("rm", "-q", "Modules/Order/Order.swift")
        try repo.commit("delete")
        let result = repo.squad(["gate", "--base", "main"])
        #expect(result.status == 1)
        #expect(result.output.contains("Modules/Order/Order.swift\tneeds one of @courier/order"))
    }

    @Test func aPRCannotRewriteItsOwnGate() throws {
        let repo = try repository()
        try repo.write("CODEOWNERS", Self.codeowners + "\n/Modules/Payments/ @mallory\n")
        try repo.write("Modules/Payments/Pay.swift", "evil\n")
        try repo.commit("take over payments")
        let result = repo.squad(["gate", "--base", "main", "--approved-by", "@mallory", "--author", "mallory"])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "CODEOWNERS\tneeds one of @courier/platform (CODEOWNERS changes need the platform team)"))
        #expect(result.output.contains("Modules/Payments/Pay.swift\tneeds one of @courier/payments"))
        #expect(result.output.contains("warning: ignored approval by @mallory"))
    }

    @Test func unownedFilesNeedPlatformAndTheAuthorsApprovalNeverCounts() throws {
        let repo = try repository()
        try repo.write("generated/blob.bin", "new\n")
        try repo.commit("regenerate")
        let byAuthor = repo.squad([
            "gate", "--base", "main", "--approved-by", "@courier/platform", "--author", "@courier/platform",
        ])
        #expect(byAuthor.status == 1)
        #expect(
            byAuthor.output.contains(
                "generated/blob.bin\tneeds one of @courier/platform (explicitly unowned by CODEOWNERS line 4)"))
        #expect(byAuthor.output.contains("authors cannot approve their own pull request"))
        #expect(repo.squad(["gate", "--base", "main", "--approved-by", "@courier/platform"]).status == 0)
    }

    @Test func pathsFromAFileListAreCheckedToo() throws {
        let repo = try repository()
        let result = repo.squad(
            ["gate", "--base", "main", "--files", "-", "--approved-by", "@courier/payments"],
            stdin: "Modules/Payments/Pay.swift\nmodules/payments/Case.swift\n../etc/passwd\n")
        #expect(result.status == 1)
        #expect(result.output.contains("Modules/Payments/Pay.swift\tapproved by @courier/payments"))
        #expect(result.output.contains("modules/payments/Case.swift\tneeds one of @courier/platform"))
        #expect(
            result.output.contains(
                "../etc/passwd\tneeds one of @courier/platform (path is not a plain repository path)"))
    }

    @Test func errorsExit2() throws {
        let repo = try repository()
        #expect(repo.squad(["gate"]).status == 2)
        let badRef = repo.squad(["gate", "--base", "no-such-branch"])
        #expect(badRef.status == 2)
        #expect(badRef.errors.contains("git rev-parse"))
        #expect(repo.squad(["gaet"]).errors.contains("did you mean 'gate'?"))
    }
}
