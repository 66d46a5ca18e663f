/// Something that receives the engine's events: the LTTng tracepoints, the
/// recorder, the SQL debug log, a test's collector.
///
/// In the manner of swift-log's handlers: a small protocol, and sinks that
/// combine (``MultiplexSink``) or do nothing (``NoOpSink``). Adding a sink
/// touches no engine code. `receive` is called on the thread the event
/// happened on, possibly from several threads at once.
public protocol EventSink: AnyObject, Sendable {
    /// Whether the sink wants events of this kind now. The engine asks
    /// before it builds an event, so an unwanted event costs one call.
    func isEnabled(_ kind: EventKind) -> Bool
    /// Optional, costlier parts of events the sink wants now.
    var details: EventDetails { get }
    /// Receives one event.
    func receive(_ event: Event)
}

extension EventSink {
    public func isEnabled(_ kind: EventKind) -> Bool { true }
    public var details: EventDetails { [] }
}

/// Optional parts of events, built only when a sink asks for them.
public struct EventDetails: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Bound values of SQL statements.
    public static let sqlArguments = EventDetails(rawValue: 1)
    /// IDs and values of fetched and faulted objects.
    public static let objectValues = EventDetails(rawValue: 2)
    /// `EXPLAIN QUERY PLAN` of each statement shape, once.
    public static let queryPlans = EventDetails(rawValue: 4)
    /// A `context` event for every object refreshed (a fault loop's worth
    /// of them), not only for resets, saves, merges and prefetch usage.
    /// The LTTng sink traces them when its tracepoint is enabled, whatever
    /// this says.
    public static let contextChanges = EventDetails(rawValue: 8)
}

/// A sink that wants nothing.
public final class NoOpSink: EventSink {
    public init() {}
    public func isEnabled(_ kind: EventKind) -> Bool { false }
    public func receive(_ event: Event) {}
}

/// Sends each event to every sink that wants it.
public final class MultiplexSink: EventSink {
    public let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) { self.sinks = sinks }

    public func isEnabled(_ kind: EventKind) -> Bool {
        for sink in sinks where sink.isEnabled(kind) { return true }
        return false
    }

    public var details: EventDetails {
        sinks.reduce(into: EventDetails()) { $0.formUnion($1.details) }
    }

    public func receive(_ event: Event) {
        let kind = event.kind
        for sink in sinks where sink.isEnabled(kind) { sink.receive(event) }
    }
}
