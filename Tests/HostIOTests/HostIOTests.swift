import Foundation
import HostIO
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

@Suite struct TerminalDecisionTests {
    @Test func withoutATerminalNothingRedrawsAndWidthComesFromColumns() {
        // The test runner's stdout is a pipe or a file, never a terminal.
        let terminal = Terminal(environment: ["COLUMNS": "48"], noColorFlag: false, streams: StandardStreams())
        #expect(!terminal.isTTY)
        #expect(!terminal.canRedraw)
        #expect(terminal.width == 48)
        #expect(terminal.styler.apply(.bold, "x") == "x")
    }

    @Test func cardsStayReadableOnNarrowAndWideScreens() {
        let narrow = Terminal(environment: ["COLUMNS": "10"], noColorFlag: false, streams: StandardStreams())
        let wide = Terminal(environment: ["COLUMNS": "300"], noColorFlag: false, streams: StandardStreams())
        let unset = Terminal(environment: [:], noColorFlag: false, streams: StandardStreams())
        #expect(narrow.cardWidth > 10)
        #expect(wide.cardWidth == 64)
        #expect(unset.width == 60)
    }
}

@Suite struct SignalExitTests {
    @Test func statusesAreTheShellsConventionOf128PlusTheSignal() {
        let statuses = SignalExit.standard.map { [$0.word: $0.status] }
        #expect(statuses == [["interrupted": 130], ["terminated": 143], ["hung up": 129], ["quit": 131]])
        for exit in SignalExit.standard { #expect(exit.status == 128 + exit.signal) }
    }
}

@Suite struct JSONLinesFileTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hostio-\(UUID().uuidString).jsonl").path
    }

    @Test func appendsWholeLinesAndStartsAfreshUnlessAppending() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var problems: [String] = []
        do {
            let file = try JSONLinesFile(path: path, option: "--record", append: false)
            file.append(#"{"a":1}"#) { problems.append($0) }
            file.append(#"{"b":2}"#) { problems.append($0) }
        }
        do {
            let again = try JSONLinesFile(path: path, option: "--analytics", append: true)
            again.append(#"{"c":3}"#) { problems.append($0) }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n")
        #expect(problems.isEmpty)
        _ = try JSONLinesFile(path: path, option: "--record", append: false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")
    }

    @Test func aFolderOrAnEmptyNameIsAUsageErrorThatSaysWhatToDo() {
        do {
            _ = try JSONLinesFile(path: NSTemporaryDirectory(), option: "--record", append: false)
            Issue.record("a folder was opened as a file")
        } catch {
            #expect(error.message.contains("--record '"))
            #expect(error.message.contains("Is a directory"))
            #expect(error.message.hasSuffix("give a file in a writable folder"))
        }
        #expect(throws: (any Error).self) { try JSONLinesFile(path: "", option: "--analytics", append: true) }
    }

    @Test func aFIFONobodyReadsIsRefusedAtOnceInsteadOfHanging() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        do {
            _ = try JSONLinesFile(path: path, option: "--record", append: false)
            Issue.record("opening a FIFO nobody reads should fail")
        } catch {
            #expect(error.message.contains("it is a pipe nobody is reading"))
        }
    }

    #if os(Linux)
        @Test func aFullDiskIsReportedOnceInTheSystemsWordsAndLaterLinesAreDropped() throws {
            let file = try JSONLinesFile(path: "/dev/full", option: "--analytics", append: true)
            var problems: [String] = []
            for _ in 0..<3 { file.append("{}") { problems.append($0) } }
            #expect(
                problems == ["cannot write --analytics '/dev/full': No space left on device; later lines are dropped"])
        }
    #endif
}
