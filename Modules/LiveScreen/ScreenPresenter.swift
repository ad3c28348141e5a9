import Core
import HostIO
import ScreenRuntime
import ScreenSinks

/// How one run of a screen is shown, decided once: a person at a terminal drives a watched screen with keys
/// (``LiveConsole``); anything else goes to ``ScreenSinks/ScreenOutput`` (painted in place, plain frames, JSON or
/// NDJSON). Either way the last frame ends on the main screen.
public struct ScreenPresenter: Sendable {
    let subject: ScreenSubject
    let json: Bool
    let plain: Bool
    let watch: Bool
    let terminal: Terminal

    /// A presenter for `subject`'s screen with the run's output options (its times are the frames' own).
    public init(subject: ScreenSubject, json: Bool, plain: Bool, watch: Bool, terminal: Terminal) {
        (self.subject, self.json, self.plain, self.watch, self.terminal) = (subject, json, plain, watch, terminal)
    }

    /// Whether a person drives it with keys: watched, on a terminal that reads keys, neither plain nor JSON.
    public var interactive: Bool { watch && terminal.canReadKeys && !plain && !json }

    /// Runs `runtime` to its end and returns the last frame: through the live console (its tab bar `tabs`, the
    /// cards it does not draw in the body) when interactive, else the output.
    public func show(_ runtime: ScreenRuntime, tabs: ConsoleTabs, skipping: Set<ComponentID>) async -> ScreenFrame {
        let output = { @Sendable in
            ScreenOutput(
                subject: subject, json: json, plain: plain || interactive, watch: watch && !interactive,
                terminal: terminal)
        }
        // Whatever ends the run (a key, the order finishing, a signal or a vanished reader cancelling this task),
        // it unwinds to here and the last frame is printed on the main screen by this one path.
        let (final, shown): (ScreenFrame, ScreenOutput)
        if interactive {
            let console = LiveConsole(
                title: subject.title, runtime: runtime, terminal: terminal, tabs: tabs,
                skipping: skipping)
            final = await KeyReader.reading(reports: { [terminal] in terminal.heard($0) }) {
                await console.run(keys: $0)
            }
            // The last frame stays on the main screen, as a plain frame at the terminal's width now.
            shown = output()
        } else {
            shown = output()
            final = await runtime.run { frame, moment in shown.show(frame, moment) }
        }
        // The last frame is measured as the terminal draws: its answers about widths, if asked, are in (or were
        // given up on a second after the question).
        await terminal.widthsSettled()
        shown.finish(final)
        return final
    }
}
