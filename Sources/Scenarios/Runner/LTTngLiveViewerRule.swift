/// lttng-relayd's rule for live sessions: one live viewer per session. A
/// second viewer's attach is refused (babeltrace2's `lttng-live` input
/// then says "There is already a viewer attached to this session"), so
/// perf-run's own reader of its relay session and a viewer of a user's
/// exclude each other: whichever attaches second fails.
enum LTTngLiveViewerRule {
    /// What babeltrace2 logs when the relay refuses a second viewer
    /// (babeltrace2 2.0: "There is already a viewer attached to this
    /// session"; matched without the words around it).
    static let refusal = "already a viewer attached to this session"

    /// The rule, in words, for messages and docs.
    static let words = "lttng-relayd allows one live viewer per session"

    /// The one line when another viewer holds `session`: what, where, the
    /// rule, and what to do.
    static func anotherViewer(of session: String, on relay: LTTngRelay) -> LTTngRecording.Unavailable {
        LTTngRecording.Unavailable(
            description: "--lttng-relay \(relay.url): session \(session) already has a live viewer on \(relay.liveURL), and \(words): "
                + "perf-run reads its session live to check the trace; detach the other viewer, and read the trace from the relay's output directory instead")
    }

    /// Whether babeltrace2's standard error (the lines `scan` gives, until
    /// the visitor returns false) says the relay refused it as a second viewer.
    static func wasRefused(scanning scan: ((Substring) -> Bool) -> Void) -> Bool {
        var refused = false
        scan { line in
            if line.contains(refusal) { refused = true }
            return !refused
        }
        return refused
    }
}
