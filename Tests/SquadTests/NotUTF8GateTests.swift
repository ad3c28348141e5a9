import CoreTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pull request adding a file whose name is not UTF-8 under an owned folder: the platform team must look at the
/// odd name, and the folder's owners at the file, as GitHub asks them too. The platform team's approval alone let
/// `secure/\377.sh` in without `/secure/`'s owner.
@Suite struct NotUTF8GateTests {
    @Test func theFoldersOwnersAreAskedBesideThePlatformTeam() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @bob\n/secure/ @alice\n")
        try repo.write("secure/keys.txt")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        let name: [UInt8] = Array("secure/".utf8) + [0xFF] + Array(".sh".utf8)
        let path = Array(repo.root.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        try await repo.commit("a script with an odd name")
        let platform = await repo.squad(["gate", "--base", "main", "--approved-by", "@courier/platform"])
        #expect(platform.status == 1, "the platform team alone: \(platform)")
        #expect(platform.output.contains("needs one of @alice (its owners by CODEOWNERS line 2"), "\(platform.output)")
        let alice = await repo.squad(["gate", "--base", "main", "--approved-by", "@alice"])
        #expect(alice.status == 1, "alice alone: \(alice)")
        let both = await repo.squad([
            "gate", "--base", "main", "--approved-by", "@alice", "--approved-by", "@courier/platform",
        ])
        #expect(both.status == 0, "\(both)")
        // The same through --files: the name as git diff --name-only quotes it.
        let listed = await repo.squad(
            ["gate", "--base", "main", "--files", "-", "--approved-by", "@courier/platform"],
            stdin: "\"secure/\\377.sh\"\n")
        #expect(listed.status == 1 && listed.output.contains("needs one of @alice"), "\(listed)")
    }
}
