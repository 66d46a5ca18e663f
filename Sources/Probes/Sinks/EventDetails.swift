/// Optional parts of events, built only when a sink asks for them.
///
/// The options are computed, not stored: a stored static is reached
/// through an accessor call (and a once-check) from another module, and
/// the engine asks for details at every traced statement and fault.
public struct EventDetails: OptionSet, Sendable {
    /// The parts as bits.
    public let rawValue: Int
    /// The parts whose bits are `rawValue`.
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    /// Bound values of SQL statements.
    @inlinable public static var sqlArguments: EventDetails { EventDetails(rawValue: 1) }
    /// IDs and values of fetched and faulted objects.
    @inlinable public static var objectValues: EventDetails { EventDetails(rawValue: 2) }
    /// `EXPLAIN QUERY PLAN` of each statement shape, once.
    @inlinable public static var queryPlans: EventDetails { EventDetails(rawValue: 4) }
    /// A `context` event for every object refreshed (a fault loop's worth
    /// of them), not only for resets, saves, merges and prefetch usage.
    @inlinable public static var contextChanges: EventDetails { EventDetails(rawValue: 8) }
    /// Every part.
    @inlinable public static var all: EventDetails { [.sqlArguments, .objectValues, .queryPlans, .contextChanges] }
}
