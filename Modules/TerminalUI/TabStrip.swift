import SafeText

/// A tab bar as one line, "▸ Tracking   Profile   Feed (3)": the one drawing of it, shared by the Tabs module's
/// card and `tabs` command and the live screen, which knows the tabs only as its state's values.
public enum TabStrip {
    /// One tab as the line shows it: its id, its label and the badge beside it.
    public typealias Label = (id: String, title: String, badge: String?)

    /// `tabs` joined on one line, the one whose id is `selected` marked and bold. Titles and badges are plugins'
    /// data (a badge counts a backend's answer): shown visibly, never raw.
    public static func line(_ tabs: [Label], selected: String, styler: TextStyler = TextStyler(colors: false))
        -> String
    {
        tabs.map { tab in
            let label = SafeText.visible(tab.title + (tab.badge.map { " (\($0))" } ?? ""))
            return tab.id == selected ? styler.apply(.bold, "▸ " + label) : label
        }.joined(separator: "   ")
    }
}
