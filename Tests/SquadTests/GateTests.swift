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

    func repository() async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", Self.codeowners)
        try repo.write("Modules/Payments/Pay.swift")
        try repo.write("Modules/Order/Order.swift")
        try repo.write("generated/blob.bin")
        try repo.write("README.md")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        return repo
    }

    @Test func anOwnersApprovalLetsAChangeMerge() async throws {
        let repo = try await repository()
        try repo.write("Modules/Payments/Pay.swift", "changed\n")
        try await repo.commit("change payments")
        let blocked = await repo.squad(["gate", "--base", "main"])
        #expect(blocked.status == 1)
        #expect(blocked.output.contains("Modules/Payments/Pay.swift\tneeds one of @courier/payments"))
        #expect(
            blocked.output.contains("blocked: missing approvals:\n  @courier/payments for Modules/Payments/Pay.swift"))
        let approved = await repo.squad(["gate", "--base", "main", "--approved-by", "@courier/payments"])
        #expect(approved.status == 0)
        #expect(approved.output.contains("may merge: 1 changed path(s)"))
        let wrongTeam = await repo.squad(["gate", "--base", "main", "--approved-by", "@courier/order"])
        #expect(wrongTeam.status == 1)
    }

    @Test func aRenameNeedsBothTheOldAndTheNewOwners() async throws {
        let repo = try await repository()
        try await repo.git("mv", "Modules/Payments/Pay.swift", "Modules/Order/Pay.swift")
        try await repo.commit("move")
        let one = await repo.squad(["gate", "--base", "main", "--approved-by", "@courier/order"])
        #expect(one.status == 1)
        #expect(one.output.contains("@courier/payments for Modules/Payments/Pay.swift"))
        let both = await repo.squad([
            "gate", "--base", "main", "--approved-by", "@courier/order", "--approved-by", "@courier/payments",
        ])
        #expect(both.status == 0)
    }

    @Test func aDeletionCounts() async throws {
        let repo = try await repository()
        try await repo.git("rm", "-q", "Modules/Order/Order.swift")
        try await repo.commit("delete")
        let result = await repo.squad(["gate", "--base", "main"])
        #expect(result.status == 1)
        #expect(result.output.contains("Modules/Order/Order.swift\tneeds one of @courier/order"))
    }

    @Test func aPRCannotRewriteItsOwnGate() async throws {
        let repo = try await repository()
        try repo.write("CODEOWNERS", Self.codeowners + "\n/Modules/Payments/ @mallory\n")
        try repo.write("Modules/Payments/Pay.swift", "evil\n")
        try await repo.commit("take over payments")
        let result = await repo.squad(["gate", "--base", "main", "--approved-by", "@mallory", "--author", "mallory"])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "CODEOWNERS\tneeds one of @courier/platform (CODEOWNERS changes need the platform team)"))
        #expect(result.output.contains("Modules/Payments/Pay.swift\tneeds one of @courier/payments"))
        #expect(result.errors.contains("warning: ignored approval by @mallory"))
    }

    @Test func unownedFilesNeedPlatformAndTheAuthorsApprovalNeverCounts() async throws {
        let repo = try await repository()
        try repo.write("generated/blob.bin", "new\n")
        try await repo.commit("regenerate")
        let byAuthor = await repo.squad([
            "gate", "--base", "main", "--approved-by", "@courier/platform", "--author", "@courier/platform",
        ])
        #expect(byAuthor.status == 1)
        #expect(
            byAuthor.output.contains(
                "generated/blob.bin\tneeds one of @courier/platform (explicitly unowned by CODEOWNERS line 4)"))
        #expect(byAuthor.errors.contains("authors cannot approve their own pull request"))
        #expect(await repo.squad(["gate", "--base", "main", "--approved-by", "@courier/platform"]).status == 0)
    }

    @Test func pathsFromAFileListAreCheckedToo() async throws {
        let repo = try await repository()
        let result = await repo.squad(
            ["gate", "--base", "main", "--files", "-", "--approved-by", "@courier/payments"],
            stdin: "Modules/Payments/Pay.swift\nmodules/payments/Case.swift\n../etc/passwd\n")
        #expect(result.status == 1)
        #expect(result.output.contains("Modules/Payments/Pay.swift\tapproved by @courier/payments"))
        #expect(result.output.contains("modules/payments/Case.swift\tneeds one of @courier/platform"))
        #expect(
            result.output.contains(
                "../etc/passwd\tneeds one of @courier/platform (path is not a plain repository path)"))
    }

    @Test func usageErrorsExit64AndGitFailuresSayWhatWasWrong() async throws {
        let repo = try await repository()
        #expect(await repo.squad(["gate"]).status == 64)
        let badRef = await repo.squad(["gate", "--base", "no-such-branch"])
        #expect(badRef.status == 2)
        #expect(
            badRef.errors
                == "squad: no such revision 'no-such-branch'; give a branch, tag or commit (git fetch first for origin/…)\n"
        )
        let typo = await repo.squad(["gaet"])
        #expect(typo.status == 64 && typo.errors.contains("did you mean 'gate'?"))
    }

    @Test func everyCommandHasHelpAndTheToolAVersion() async throws {
        let repo = try await repository()
        #expect(await repo.squad(["--version"]).output == "squad 0.1.0\n")
        for command in ["owners", "lint", "gate", "affected", "new"] {
            let help = await repo.squad([command, "--help"])
            #expect(help.status == 0, "\(command)")
            #expect(help.output.hasPrefix("usage: squad \(command)"), "\(command)")
            #expect(await repo.squad(["help", command]).output == help.output)
        }
        #expect(await repo.squad(["gate", "--help"]).output.contains("--approved-by OWNER"))
    }

    @Test func anOwnerWithoutTheAtGetsASuggestionOnStderr() async throws {
        let repo = try await repository()
        try repo.write("Modules/Payments/Pay.swift", "changed\n")
        try await repo.commit("change payments")
        let result = await repo.squad(["gate", "--base", "main", "--approved-by", "courier/payments"])
        #expect(result.status == 1)
        #expect(
            result.errors.contains(
                "warning: ignored approval by courier/payments: CODEOWNERS names no such owner; did you mean '@courier/payments'?"
            ))
        #expect(!result.output.contains("warning"))
    }

    @Test func aNewModulesFirstPullRequestSaysWhyPlatformMustApprove() async throws {
        let repo = try await repository()
        try repo.write("Modules/Rewards/Rewards.swift")
        try repo.write("CODEOWNERS", Self.codeowners + "\n/Modules/Rewards/ @courier/rewards\n")
        try await repo.commit("new module")
        let result = await repo.squad(["gate", "--base", "main", "--approved-by", "@courier/rewards"])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "Modules/Rewards/Rewards.swift\tneeds one of @courier/platform (the base CODEOWNERS (line 1) gives it to "
                    + "@courier/platform; this pull request's CODEOWNERS names @courier/rewards, which decides from the next pull request)"
            ))
    }

    @Test func uncommittedChangesAreNamedNotSilentlyIgnored() async throws {
        let repo = try await repository()
        try repo.write("Modules/Payments/Pay.swift", "changed but not committed\n")
        let result = await repo.squad(["gate", "--base", "main"])
        #expect(
            result.errors.contains(
                "warning: 1 uncommitted change(s) are not part of the gate (Modules/Payments/Pay.swift); commit them to have them checked"
            ))
    }
}

@Suite struct OwnersPathTests {
    func repository() async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", GateTests.codeowners)
        try repo.write("Modules/Payments/Pay.swift")
        try repo.write("Modules/Payments/Sub/Deep.swift")
        try repo.write("Modules/Order/Order.swift")
        try repo.write("generated/blob.bin")
        try await repo.commit("base")
        return repo
    }

    @Test func foldersStandForTheTrackedFilesUnderThem() async throws {
        let repo = try await repository()
        let expected =
            "Modules/Payments/Pay.swift\t@courier/payments\nModules/Payments/Sub/Deep.swift\t@courier/payments\n"
        #expect(await repo.squad(["owners", "Modules/Payments"]).output == expected)
        #expect(await repo.squad(["owners", "Modules/Payments/"]).output == expected)
    }

    @Test func pathsAreRelativeToWhereYouAreOrAbsoluteInsideTheRepository() async throws {
        let repo = try await repository()
        #expect(
            await repo.squad(["owners", "Pay.swift"], in: "Modules/Payments").output
                == "Modules/Payments/Pay.swift\t@courier/payments\n")
        #expect(
            await repo.squad(["owners", "../Order/Order.swift"], in: "Modules/Payments").output
                == "Modules/Order/Order.swift\t@courier/order\n")
        let absolute = repo.root.resolvingSymlinksInPath().appendingPathComponent("Modules/Order/Order.swift").path
        #expect(await repo.squad(["owners", absolute]).output == "Modules/Order/Order.swift\t@courier/order\n")
        let outside = await repo.squad(["owners", "/etc/passwd"])
        #expect(outside.status == 2)
        #expect(outside.errors.hasPrefix("squad: '/etc/passwd' is outside the repository"))
    }

    @Test func pathsFromStdinOneALineOrNULSeparated() async throws {
        let repo = try await repository()
        let lines = await repo.squad(["owners", "-"], stdin: "Modules/Order/Order.swift\ngenerated/blob.bin\n")
        #expect(lines.output == "Modules/Order/Order.swift\t@courier/order\ngenerated/blob.bin\t-\n")
        let nul = await repo.squad(["owners", "-", "-z"], stdin: "Modules/Order/Order.swift\0README has space.md\0")
        #expect(nul.output == "Modules/Order/Order.swift\t@courier/order\nREADME has space.md\t@courier/platform\n")
    }

    /// Lines from Windows editors, "./" and ".." segments and bare folder names are resolved as on the command
    /// line; only plain relative paths take the fast way through.
    @Test func stdinLinesAreResolvedLikeArguments() async throws {
        let repo = try await repository()
        let result = await repo.squad(
            ["owners", "-"],
            stdin:
                "./Modules/Order/Order.swift\r\nModules/Payments/../Order/Order.swift\nModules/Payments/Sub\n.hidden\n"
                + "Modules/Order/Makefile\nMakefile\n")
        // A dotless name is the file it names, in a folder on disk or not, unless a folder of that name is there.
        #expect(
            result.output
                == "Modules/Order/Order.swift\t@courier/order\nModules/Order/Order.swift\t@courier/order\n"
                + "Modules/Payments/Sub/Deep.swift\t@courier/payments\n.hidden\t@courier/platform\n"
                + "Modules/Order/Makefile\t@courier/order\nMakefile\t@courier/platform\n")
    }

    @Test func whatATeamOwnsAndWhatNobodyOwns() async throws {
        let repo = try await repository()
        #expect(
            await repo.squad(["owners", "--owner", "@courier/payments"]).output
                == "Modules/Payments/Pay.swift\nModules/Payments/Sub/Deep.swift\n")
        #expect(await repo.squad(["owners", "--unowned"]).output == "generated/blob.bin\n")
        let bare = await repo.squad(["owners", "--owner", "courier/payments"])
        #expect(bare.output == "")
        #expect(bare.errors == "warning: 'courier/payments' is not an owner name; did you mean '@courier/payments'?\n")
    }
}
