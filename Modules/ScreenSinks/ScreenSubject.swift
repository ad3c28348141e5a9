import SafeText
import ScreenRuntime

/// What a screen is about, as its outputs name it: the screen's name, its title with the inputs filled in, and
/// the inputs in the definition's order (`order: 1234`, `cart: C100`), which the JSON report carries at its top.
public struct ScreenSubject: Sendable, Equatable {
    /// The screen's name ("tracking", "checkout").
    public let screen: String
    /// The heading a person reads ("Order 1234", "Checkout C100").
    public let title: String
    /// The inputs, in order.
    public let inputs: [Input]
    /// The same inputs by name (the first of a name given twice), built once here: the title is filled from them,
    /// and the host hands them on as the screen's ids and the analytics' subject.
    public let ids: [String: String]

    /// One input: its name and value.
    public struct Input: Sendable, Equatable {
        /// The id kind ("cart").
        public let name: String
        /// Its value ("C100").
        public let value: String
    }

    /// A subject; `title` is filled from `inputs` (the template itself when one is missing).
    public init(screen: String, title: String, inputs: [(String, String)]) {
        self.screen = screen
        self.inputs = inputs.map { Input(name: $0.0, value: $0.1) }
        ids = Dictionary(inputs) { first, _ in first }
        // A title is the backend's text: never a control character on a terminal.
        let filled = ScreenDefinition.fill(title, ids)
        self.title = SafeText.visible(filled ?? title)
    }
}
