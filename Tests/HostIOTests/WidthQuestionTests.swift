import Core
import Foundation
import TerminalUI
import Testing

@testable import HostIO

/// The run's one width question, without a terminal: what it writes, when the drawings hear of the answers, and
/// what it gives back at the end.
@Suite struct WidthQuestionTests {
    final class Written: Sendable {
        let text = Locked("")
        let told = Locked(0)
    }

    /// The answers of a terminal that counts code points (❤️ 1, #️⃣ 1, ⌚︎ 2, ☝🏻 3, 👍🏻 4, 👨‍👩‍👧 6, 🇸🇦 2, का 1,
    /// ZWSP 0, 🕳 1) after a mode 2027 report of `mode`.
    static func answers(mode: Int) -> [[UInt8]] {
        [Array("\u{1B}[?2027;\(mode)$y".utf8)] + [2, 2, 3, 4, 5, 7, 3, 2, 1, 2].map { Array("\u{1B}[1;\($0)R".utf8) }
            + [Array("\u{1B}[?62;22c".utf8)]
    }

    @Test func theDrawingsHearOfAnswersThatChangeAWidthOnceTheyAreComplete() {
        let question = WidthQuestion()
        let written = Written()
        question.ask(write: { text in written.text.withLock { $0 += text } }, ownReader: false) {
            written.told.withLock { $0 += 1 }
        }
        #expect(written.text.withLock { $0 } == WidthProbe.question, "asked once, as written")
        let replies = Self.answers(mode: 0)
        question.heard(Array(replies.dropLast()))
        #expect(question.widths == .unicode && written.told.withLock { $0 } == 0, "incomplete: Unicode's widths")
        question.heard([replies[replies.count - 1]])
        #expect(written.told.withLock { $0 } == 1)
        #expect(question.widths.answers[.emojiVS16] == 1 && question.widths.answers[.toneOnTextBase] == 3)
        question.heard(replies)
        #expect(written.told.withLock { $0 } == 1, "later reports change nothing")
        #expect(question.clusteringRestored().isEmpty, "mode 2027 unknown: nothing to turn off")
        question.ask(write: { text in written.text.withLock { $0 += text } }, ownReader: false) {}
        #expect(written.text.withLock { $0 } == WidthProbe.question, "never asked twice")
    }

    @Test func clusteringTurnedOnByTheQuestionIsTurnedOffAtTheEndAndOnAgainAfter() {
        let question = WidthQuestion()
        question.ask(write: { _ in }, ownReader: false) {}
        question.heard(Self.answers(mode: 2))
        #expect(question.clusteringRestored() == WidthProbe.clusteringOff)
        #expect(question.clusteringRestored().isEmpty, "once")
        #expect(question.clusteringResumed() == WidthProbe.clusteringOn, "after fg, or for the next screen")
        let on = WidthQuestion()
        on.ask(write: { _ in }, ownReader: false) {}
        on.heard(Self.answers(mode: 1))
        #expect(on.clusteringRestored().isEmpty, "it was on before the question: left on")
    }

    @Test func aQuestionNeverAskedOrGivenUpOnIsNotWaitedFor() async {
        let never = WidthQuestion()
        await never.settle()
        #expect(!never.wasAsked && never.widths == .unicode)
        let silent = WidthQuestion()
        silent.ask(write: { _ in }, ownReader: false) {}
        silent.giveUp()
        await silent.settle()
        silent.heard(Self.answers(mode: 0))
        #expect(silent.widths == .unicode, "answers after it was given up on change nothing")
    }
}
