import Core
import SafeText
import ScreenRuntime
import TerminalUI

extension ScreenConsole {
    /// The whole live screen at `width` columns: the title, the bar, the body (the cards, or the selected tab's
    /// screen), what is open, a message, and the line that says which keys do what (and, when the body is scrolled
    /// to fit, which of its `position` rows are shown). Every line fits the width, so a narrow or resized terminal
    /// never wraps a border.
    public func lines(
        title: String, bar: String?, body: [String], updated: String?, width: Int, styler: TextStyler,
        position: (first: Int, last: Int, of: Int)? = nil
    ) -> [String] {
        let cardWidth = CardRenderer.width(forColumns: width)
        func fit(_ text: String) -> String { DisplayWidth.truncate(text, to: max(width, 1)) }
        var lines = [styler.apply(.bold, fit(title))]
        if let bar { lines.append(bar) }
        lines += body
        if let block = overlayBlock { lines += CardRenderer.lines(for: block, width: cardWidth, styler: styler) }
        // A message may carry the backend's words (an action's answer): shown, never obeyed.
        if let message { lines.append(styler.apply(.warning, fit(SafeText.visible(message)))) }
        switch overlay {
        case .prompt(let key, let typed):
            let label = prompts.first { $0.key == key }?.label ?? ""
            lines.append(fit("\(label): \(typed)▏  Enter applies · Esc abandons"))
        default:
            // What matters most stays when the line is narrow: quitting, the keys, then where the window is.
            let rows = position.map { "rows \($0.first)–\($0.last) of \($0.of) ↑↓" }
            let short = position.map { "\($0.first)–\($0.last)/\($0.of) ↑↓" }
            let choices = [[rows, updated.map { "updated \($0)" }], [rows], [short], []].map {
                ($0.compactMap { $0 } + ["? keys", "q quit"]).joined(separator: " · ")
            }
            let keys = choices.first { DisplayWidth.of($0) <= width } ?? choices[choices.count - 1]
            lines.append(styler.apply(.dim, fit(keys)))
        }
        return lines
    }

    private var overlayBlock: Block? {
        switch overlay {
        case .none, .asking, .prompt: return nil
        case .help:
            return Block(title: "Keys", rows: keyHelp.map { Row($0.keys, value: $0.effect) })
        case .action(_, let title, let said, let question, _):
            let last = question.map { Row("\($0) (y/n)", style: .bold) } ?? Row("Esc closes", style: .dim)
            return Block(title: title, rows: said.map { Row($0) } + [last])
        case .confirmTab(_, let question):
            return Block(title: question, rows: [Row("\(question) (y/n)", style: .bold)])
        }
    }
}
