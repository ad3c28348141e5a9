import Foundation
import Testing

/// What `screen NAME` and `checkout` refuse before anything loads or is sent: an input given twice, an input or
/// an action the screen does not define. Each is a usage error (64) on one line that says what to type.
@Suite struct ScreenCommandTests {
    @Test func anInputGivenTwiceIsRefusedSoTheReportAndThePaymentCanNeverDisagree() async {
        let run = await InProcess.run([
            "screen", "checkout", "--input", "cart=C100", "--input", "cart=C200", "--action", "pay", "--format", "json",
        ])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty, "nothing was shown, nothing was sent")
        #expect(
            run.stderr
                == "order-tracking: --input cart given twice ('C100' and 'C200'); give each input once "
                + "(see 'order-tracking screen --help')\n")
    }

    @Test func anInputTheScreenDoesNotTakeIsNamedWithWhatItTakes() async {
        let run = await InProcess.run(["screen", "checkout", "--input", "crt=C100"])
        #expect(run.status == 64)
        #expect(
            run.stderr.contains(
                "screen 'checkout' takes no input 'crt' (its inputs: cart; its prompts: method, promo); did you mean "
                    + "'cart'?"))
    }

    @Test(arguments: [
        (["screen", "checkout", "--input", "cart=C100", "--action", "Pay"], "did you mean 'pay'?"),
        (["screen", "checkout", "--input", "cart=C100", "--action", "refund"], "(it has pay)"),
        (["screen", "tracking", "--input", "order=1234", "--action", "cancel-ordr"], "did you mean 'cancel-order'?"),
    ])
    func anActionTheScreenDoesNotDefineIsAUsageError(arguments: [String], hint: String) async {
        let run = await InProcess.run(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("has no action '\(arguments[arguments.count - 1])'"), "\(run.stderr)")
        #expect(run.stderr.contains(hint), "\(run.stderr)")
    }

    @Test func aKnownActionStillRuns() async {
        let run = await InProcess.run(["screen", "checkout", "--input", "cart=C100", "--action", "pay"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Paid SAR 50.50 with Visa •••• 4242: order 4242"))
    }
}
