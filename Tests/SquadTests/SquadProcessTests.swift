import CoreTesting
import Foundation
import Testing

/// What only the squad process shows: it runs on HostIO's streams and signal handling, as order-tracking does,
/// so output it could not write is never a silent "yes", and a signal ends it with the documented status.
@Suite struct SquadProcessTests {
    let squad = ProcessRunner.productsDirectory.appendingPathComponent("squad").path

    #if os(Linux)
        @Test(arguments: ["--version", "owners README.md", "lint", "owners --help"])
        func outputThatCannotBeWrittenIsSaidAndExits1(command: String) async throws {
            let repo = try await GitRepository()
            try repo.write("CODEOWNERS", "* @courier/platform\n")
            try repo.write("README.md", "hello\n")
            try await repo.commit("base")
            let run = try await ProcessRunner.run(
                "bash", ["-c", "'\(squad)' \(command) > /dev/full"], directory: repo.root)
            #expect(run.status == 1, "a full disk is no success: \(run.stderr)")
            #expect(
                run.stderr
                    == "squad: cannot write to standard output: No space left on device; free some space or write "
                    + "elsewhere\n")
        }
    #endif

    @Test func aClosedStandardOutputIsRefusedAtOnce() async throws {
        let run = try await ProcessRunner.run("bash", ["-c", "'\(squad)' --version >&-"])
        #expect(run.status == 1)
        #expect(
            run.stderr == "squad: standard output is closed; run it with stdout open (a terminal, a pipe or > FILE)\n")
    }

    @Test func aReaderThatGoesAwayEndsItQuietly() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n")
        try await repo.commit("base")
        let script = """
            for i in $(seq 200000); do echo "Modules/M$i/F.swift"; done > paths.txt
            '\(squad)' owners - < paths.txt | head -1
            echo "status=${PIPESTATUS[0]}"
            """
        let run = try await ProcessRunner.run("bash", ["-c", script], directory: repo.root, limit: .seconds(120))
        #expect(run.stdout == "Modules/M1/F.swift\t@courier/platform\nstatus=1\n")
        #expect(run.stderr.isEmpty, "a reader that went away is not an error to report: \(run.stderr)")
    }

    #if os(Linux)
        /// squad waits on stdin (a FIFO held open) with its handlers in place (caught, in /proc), then gets the
        /// signal: the status is 128 + its number and stderr says the word.
        @Test(arguments: [("TERM", 143, "terminated"), ("INT", 130, "interrupted"), ("HUP", 129, "hung up")])
        func aSignalEndsItWithItsStatus(signal: String, status: Int, word: String) async throws {
            let repo = try await GitRepository()
            try repo.write("CODEOWNERS", "* @courier/platform\n")
            try await repo.commit("base")
            let bit = ["TERM": 15, "INT": 2, "HUP": 1][signal]! - 1
            let script = """
                mkfifo .in
                '\(squad)' owners - < .in 2> .err &
                pid=$!
                exec 3> .in
                for i in $(seq 400); do
                  mask=$(awk '/^SigCgt/ {print $2}' /proc/$pid/status 2>/dev/null)
                  [ -n "$mask" ] && (( (16#$mask >> \(bit)) & 1 )) && break
                  sleep 0.05
                done
                kill -\(signal) $pid
                wait $pid
                echo "status=$?"
                exec 3>&-
                cat .err
                """
            let run = try await ProcessRunner.run(
                "bash", ["-c", script], directory: repo.root, limit: .seconds(60))
            #expect(run.stdout == "status=\(status)\n\(word)\n", "\(run.stderr)")
        }
    #endif
}
