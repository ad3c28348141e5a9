import Core
import Foundation
import Testing

@testable import ComponentWorkers

/// The frames between host and worker: what one side writes the other reads, and a broken peer is an end.
@Suite struct WorkerFramesTests {
    @Test func aCallCrossesThePipeAsItWasSent() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let spec = SlotSpec(
            component: "eta", ids: ["order": "1234"], presentation: .alone, timeout: .seconds(2),
            payload: Data("{}".utf8))
        let sent = ToWorker.call(
            id: 7, slot: 3, spec: spec, now: Date(timeIntervalSince1970: 1_700_000_000),
            op: .load(received: [DomainEvent("promo.entered", text: "SAVE10")]))
        let frame = try #require(WorkerFrames.frame(sent))
        #expect(WorkerFrames.write(frame, to: ends[1]))
        let read = try #require(WorkerFrames.next(ToWorker.self, from: ends[0]))
        guard case .call(let id, let slot, let got, let now, .load(let received)) = read else {
            Issue.record("read \(read)")
            return
        }
        #expect(id == 7 && slot == 3 && got == spec && now == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(received == [DomainEvent("promo.entered", text: "SAVE10")])
    }

    @Test func aLengthPastTheLimitIsTheEndNotAnAllocation() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(WorkerFrames.write(Data([0xFF, 0xFF, 0xFF, 0xFF, 0x7B]), to: ends[1]))
        #expect(WorkerFrames.next(ToWorker.self, from: ends[0]) == nil)
    }

    @Test func aCrashIsSaidWithTheTrapsMessageOrItsSignal() {
        let errors = Data("Crashy/CrashyComponent.swift:20: Fatal error: crashy load trapped\n\u{1B}[2J".utf8)
        #expect(
            WorkerLink.reason("Crashy", status: 132, errors: errors, endedBecause: nil)
                == "Crashy's code stopped: Fatal error: crashy load trapped")
        #expect(
            WorkerLink.reason("Crashy", status: 128 + 11, errors: Data(), endedBecause: nil)
                == "Crashy's code stopped: signal 11, segmentation fault (a stack overflow or a bad pointer)")
        #expect(
            WorkerLink.reason(
                "Crashy", status: 3, errors: Data("Fatal error: \u{1B}]52;c;x\u{07}".utf8), endedBecause: nil)
                == "Crashy's code stopped: Fatal error: ␛]52;c;x␇")
    }
}

/// A reply too large to cross (a card whose info is tens of MB, its JSON asked for) is the call's failure, said at
/// once: it was dropped, so the host waited out the card's deadline, said "gave no answer within 5s" and killed the
/// worker as one that would not stop.
@Suite struct OversizedReplyTests {
    @Test func aReplyPastTheLimitIsSentAsTheCallsFailure() throws {
        // A socket, as the worker's channel to its host is.
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, streamSocket, 0, &ends) == 0)
        defer { ends.forEach { close($0) } }
        let server = WorkerServer([], errands: [], output: ends[1], limit: 4 << 10)
        let big = Block(title: "Big", rows: [Row(String(repeating: "h", count: 8 << 10))])
        server.reply(7, .block(big))
        let read = try #require(WorkerFrames.next(FromWorker.self, from: ends[0]))
        guard case .reply(7, .failed(let failure)) = read else {
            Issue.record("read \(read)")
            return
        }
        #expect(failure.reason.contains("larger than its worker may send"), "\(failure.reason)")
    }
}

#if canImport(Darwin)
    private let streamSocket = SOCK_STREAM
#else
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#endif
