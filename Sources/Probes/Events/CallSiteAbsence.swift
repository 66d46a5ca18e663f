/// Why an event has no call site: what a report, a log line or a trace
/// says in its place (``CallSite/description``: `no call site (the store's
/// own work)`), never a made-up file and line.
public enum CallSiteAbsence: String, Sendable, Codable, CaseIterable {
    /// Work outside any `perform` block and any call that names its line
    /// (an object read with no context block around it).
    case outsidePerform = "outside-perform"
    /// Statements the store runs for itself, for no call of the
    /// application's (opening a connection, reading the schema).
    case storeWork = "store-work"
    /// A line the stack named once, forgotten since: more call chains
    /// than ``CallerLine`` remembers at once.
    case forgotten
    /// A SQL debug log whose lines name no call site (Core Data's).
    case notLogged = "not-logged"
    /// A report written before reasons were recorded (its `?:0`), or a
    /// site no one set.
    case notRecorded = "not-recorded"

    /// The reason in words, as reports show it after "no call site".
    public var explanation: String {
        switch self {
        case .outsidePerform: "outside any perform block"
        case .storeWork: "the store's own work"
        case .forgotten: "more call chains than are remembered"
        case .notLogged: "the log names none"
        case .notRecorded: "none recorded"
        }
    }

    /// The number a ``CallSite`` keeps in its line (negative: no line is).
    var code: Int {
        switch self {
        case .notRecorded: -1
        case .outsidePerform: -2
        case .storeWork: -3
        case .forgotten: -4
        case .notLogged: -5
        }
    }

    /// The reason a site's line holds, nil for a line from 1.
    init?(code: Int) {
        guard code <= 0 else { return nil }
        self = Self.allCases.first { $0.code == code } ?? .notRecorded
    }
}
