import ArgumentParsing
import LiveScreen
import TerminalUI

/// The help texts: one per command, shown by `--help` and `help COMMAND`. Option lines come from the parser's
/// own specs.
enum Help {
    static let version = "order-tracking 0.1.0"

    /// The USAGE lines, one a command, generated from the declarations (the README's synopsis is the same text).
    static var usage: String {
        CommandLineSynopsis(
            tool: "order-tracking", commands: OrderTrackingApp.commands, fallback: "track",
            trailer: "help COMMAND | --help | --version"
        ).text.split(separator: "\n").joined(separator: "\n  ")
    }

    static let main = """
        order-tracking: a live order-tracking screen composed from squad-owned components.

        USAGE
          \(usage)

        OPTIONS
        \(OptionSpec.helpLines(OrderTrackingApp.commands[0].options))

          Options go before or after the command (order-tracking --plain checkout C100). Given twice, an option
          takes its last value (--input and --event keep every one). SECONDS are plain decimal: 2, 2.5, .5.

        KEYS (--watch on a terminal: a screen you can drive)
        \(keys("tracking"))

        DEMO ORDERS
          1234 happy path · 5678 payment payload bug · 9012 slow rider endpoint · 4040 no rider/ETA
          7777 delivered · 3333 cancellable (inline ETA payload, unknown 'unregistered' card)
          4242 live: preparing → on the way → delivered in about a minute (try --watch)
          6060 the rider reports the hand-over first (an event loop, refused and named on stderr)

        DEMO CARTS (order-tracking checkout CART-ID)
          C100 pays (the answer is the live order 4242) · C200 no usable payment method (Pay vetoed)
          C300 its price fails (a critical card: the screen fails)

        EXIT STATUS
          0 every card shown · 2 degraded (cards hidden or stale) · 1 fatal (unknown order, backend down,
          a critical card failed, a send failed: nothing sent, or refused, output not writable) · 3 an action
          vetoed · 4 an action cannot tell · 5 an action's outcome unknown (sent, no answer, a redirect or a 5xx:
          it may have gone through; check before trying again) · 64 usage error · 129/130/131/143 HUP/INT/QUIT/TERM
        """

    static let screen = """
        Shows any screen the backend defines in screens/NAME.json: its cards in order, each from its squad.
        --input gives its inputs by name: the ids its cards read and its prompts' values, each routed at the
        start as if typed (the definition lists both; an unknown name says which it takes); --action carries
        out one of its actions once the cards have loaded. A card marked critical that fails fails the screen.
        Exit 0 shown (or the action done), 2 degraded, 1 a critical card failed or the action failed, 3 vetoed,
        4 cannot tell, 5 the action's outcome unknown (it may have gone through: check first), 6 an input given
        is not in what would be sent, 7 an earlier attempt is pending, 64 usage.
        """

    static let checkout = """
        The checkout screen of a cart: what is in it, how to pay, the coupon and the total. --input gives its
        prompts' values by name: method=ID picks a saved method, promo=CODE applies a code (the total is
        recalculated); --method and --promo are their aliases; a method is chosen by its id, exactly. --pay pays
        once the cards have loaded: a card's veto stops it (nothing is sent); so does a promo code given that the
        total did not apply. A payment is its typed intent (cart, amount in minor units, currency, method id,
        promo), sent once under one Idempotency-Key per cart, kept in the data folder: while unknown, the same
        intent reuses it and another is refused; once paid, the same intent is answered from it ("already paid")
        for --attempt-retention (24 h); paying the cart again takes --new-attempt. A paid or unknown run keeps
        its code when its report cannot be written. With --watch on a terminal: m chooses a method, p a code, P
        pays (after y), and the new order is followed. Exit 0 paid, 3 vetoed, 1 failed (nothing was sent, or
        the backend refused it), 5 unknown (it may have gone through; check before paying again), 6 an input
        given is not in the payment, 7 an earlier attempt is pending, paid otherwise or too old, 64 usage.
        """

    /// The live screen's keys for screen `name` (from the embedded demo's definition).
    static func keys(_ name: String) -> String {
        let definition = HostEnvironment.embeddedDefinition(name)
        let console = ScreenConsole(
            prompts: definition?.prompts.map(\.prompt) ?? [], actions: definition?.actions ?? [])
        return DisplayWidth.columns(console.keyHelp.map { ["  " + $0.keys, $0.effect] }).joined(separator: "\n")
    }

    static let preview = """
        Shows one component alone (presentation: alone). It reads the ids --input gives (--order ID is order=ID);
        one not given is the first demo subject of the card's screen (cart C100 on the checkout, order 1234 on
        tracking), said on stderr in one line. An --input named like a prompt of that screen (promo=SAVE10) is
        the prompt's value, said before the first load as on the screen. --payload feeds it a JSON file instead
        of its endpoint; --fail injects a backend fault; --state loading shows the skeleton; --event delivers
        another squad's event after the load (e.g. order.status=delivered) and says how the card reacted
        (updated, reloaded, no change). Exit 0 shown, 2 failed, 64 usage.
        """

    static let components = """
        Lists every registered component: id, module, owning team (from CODEOWNERS) and endpoint.
        """

    static let cancel = """
        Loads the order and asks every validating component (Order, Payments) whether it may be cancelled;
        prints each verdict with its reason, or what the confirmation needs (Payments: the refund and where it
        goes). --format json prints every verdict in one object. Exit 0 may cancel, 3 vetoed, 4 cannot tell (no
        card on the order's screen answers for cancelling: silence is never a yes), 1 order not loadable.
        """

    static let login = """
        Signs in (demo user 1234) and runs every module's login hooks: Profile and Feed fetch, Storage keeps the
        user in DIR (default $XDG_DATA_HOME/courier or ~/.local/share/courier). A failed login clears it.
        --verbose also prints what the hooks found. Problems go to stderr.
        Exit 0 signed in, 2 signed in but a hook failed, 1 login failed or DIR unusable, 64 usage.
        """

    static let logout = """
        Removes the user login kept in DIR (none kept is fine). Exit 0, 1 it cannot be removed, 64 usage.
        """

    static let tabs = """
        Prints the tab bar and what the selected tab does: its screen, or its action (signout signs the user
        out). Profile, Feed and Sign out appear once a user is signed in. --watch follows the bar until Ctrl-C:
        it redraws when a badge changes and when someone signs in or out on the same --data-dir.
        """
}
