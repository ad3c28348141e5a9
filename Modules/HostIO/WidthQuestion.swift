import Core
import Foundation
import TerminalUI

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The run's one question to its terminal about widths (``TerminalUI/WidthProbe``) and what came of it: asked at
/// most once, never waited for before a frame is drawn, and given up on a second after it was asked, so a
/// terminal that answers nothing keeps Unicode's widths and stalls nothing. The answers come on stdin: through
/// the live screen's key reader (``KeyReader/reading(reports:_:)``), which never hands them out as keys, or, for a
/// one-shot run that reads no keys, through a thread of its own that reads only until the answers are complete.
final class WidthQuestion: Sendable {
    /// How long the answers are waited for, from the moment the question was written.
    static let limit: Duration = .seconds(1)

    private struct State: Sendable {
        var answers = WidthProbe.Answers()
        /// When the question was written; nil: not asked.
        var asked: ContinuousClock.Instant?
        /// Complete, or given up on: the widths no longer change.
        var settled = false
        /// Told (once) when the answers change the widths.
        var changed: [@Sendable () -> Void] = []
        /// Whether clustering is on now because the question turned it on.
        var clusteringOn = false
        /// Whether the own reader holds stdin in raw mode.
        var reading = false
    }

    private let state = Locked(State())

    /// The widths the answers say so far (Unicode's until complete).
    var widths: ClusterWidths { state.withLock { $0.settled || $0.answers.complete ? $0.answers.widths : .unicode } }

    /// Whether the question was written.
    var wasAsked: Bool { state.withLock { $0.asked != nil } }

    /// Writes the question through `write` (once per run; later calls only add `changed`, and turn clustering on
    /// again when an earlier end of a screen turned it off). With `ownReader`, reads the answers from stdin on a
    /// thread of its own in raw mode until they are complete or the limit passes.
    func ask(write: @escaping @Sendable (String) -> Void, ownReader: Bool, changed: @escaping @Sendable () -> Void) {
        let first = state.withLock { state -> Bool in
            state.changed.append(changed)
            guard state.asked == nil else { return false }
            state.asked = .now
            state.reading = ownReader
            return true
        }
        guard first else { return write(clusteringResumed()) }
        if ownReader { RawMode.enable() }
        write(WidthProbe.question)
        if ownReader { startReader() }
    }

    /// Reports the terminal sent (from the key reader or the own thread).
    func heard(_ reports: [[UInt8]]) {
        let tell = state.withLock { state -> [@Sendable () -> Void] in
            guard state.asked != nil, !state.settled else { return [] }
            for report in reports { state.answers.hear(report) }
            if state.answers.turnedClusteringOn { state.clusteringOn = true }
            guard state.answers.complete else { return [] }
            state.settled = true
            // Until now the widths were Unicode's: the drawings are told only when the answers differ.
            return state.answers.widths == .unicode ? [] : state.changed
        }
        for action in tell { action() }
    }

    /// Waits until the answers are complete or the limit has passed since asking (at once when never asked or
    /// when the task is cancelled), then stops the own reader.
    func settle() async {
        while let deadline = state.withLock({ $0.settled || $0.asked == nil ? nil : $0.asked.map { $0 + Self.limit } }),
            ContinuousClock.now < deadline, !Task.isCancelled
        {
            try? await Task.sleep(for: .milliseconds(5))
        }
        giveUp()
        // The own reader sees it within one poll (20 ms) and puts stdin back; the run ends after that.
        for _ in 0..<40 where isReading { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Stops waiting: the widths stay as they are.
    func giveUp() {
        state.withLock { state in
            if state.asked != nil { state.settled = true }
        }
    }

    /// Whether the own reader still holds stdin (raw mode to be restored by whoever gives the terminal back).
    var isReading: Bool { state.withLock { $0.reading } }

    /// The bytes that give the terminal back clustering as it was (empty when the question did not change it),
    /// noted as done.
    func clusteringRestored() -> String {
        state.withLock { state in
            defer { state.clusteringOn = false }
            return state.clusteringOn ? WidthProbe.clusteringOff : ""
        }
    }

    /// The bytes that turn clustering on again when the question had turned it on and an ending or a suspend
    /// turned it off (empty otherwise), noted as done.
    func clusteringResumed() -> String {
        state.withLock { state in
            guard state.answers.turnedClusteringOn, !state.clusteringOn else { return "" }
            state.clusteringOn = true
            return WidthProbe.clusteringOn
        }
    }

    /// Reads stdin a byte at a time (nothing typed after the answers is taken from the shell) until the answers
    /// are complete, the question was given up on, or the limit passed; then puts stdin back as it was.
    private func startReader() {
        let thread = Thread { [self] in
            var decoder = KeyDecoder()
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            while let deadline = state.withLock({ $0.settled ? nil : $0.asked.map { $0 + Self.limit } }),
                ContinuousClock.now < deadline
            {
                let ready = poll(&poller, 1, 20)
                if ready < 0 && errno != EINTR { break }
                guard ready > 0 else { continue }
                let count = read(STDIN_FILENO, &byte, 1)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count == 1 else { break }
                _ = decoder.feed([byte])
                let reports = decoder.takeReports()
                if !reports.isEmpty { heard(reports) }
            }
            giveUp()
            let wasReading = state.withLock { state in
                defer { state.reading = false }
                return state.reading
            }
            if wasReading { RawMode.restore() }
        }
        thread.name = "courier-width-answers"
        thread.start()
    }
}
