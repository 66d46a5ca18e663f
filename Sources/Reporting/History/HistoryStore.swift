/// Where runs are kept: a SQLite file by default, PostgreSQL for a fleet
/// of runners (``HistoryLocation``).
///
/// A store loses nothing: adding never replaces a run, a run already kept
/// (same ``RunIdentity``) is left as it is, and runners may add at the
/// same time.
public protocol HistoryStore: Sendable {
    /// Adds the runs not yet kept; returns how many were new.
    @discardableResult
    func add(_ runs: [HistoryRun]) throws(HistoryError) -> Int
    /// The runs the query matches, oldest first (by time, then identity).
    func runs(_ query: HistoryQuery) throws(HistoryError) -> [HistoryRun]
}

/// A store that cannot be opened, read or written: the reason, naming the
/// store (its address without a password).
public struct HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
