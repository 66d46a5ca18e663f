/// Something that receives the engine's events: a log, a metrics or tracing
/// bridge, a test's collector, a sink of one's own.
///
/// In the manner of swift-log's handlers, a small protocol: whether the sink
/// wants events of a kind now, which optional parts of them, and each event.
/// Sinks combine (``MultiplexSink``) or do nothing (``NoOpSink``); adding one
/// touches no engine code. `receive` is called on the thread the event
/// happened on, possibly from several threads at once.
///
/// The recorder and the LTTng tracepoints take the most frequent events (a
/// fault or a statement per object read in a loop) as their parts, before
/// any event is made: that fast path is a protocol of its own,
/// `FastPathEventSink`, behind `@_spi(FastPath) import Probes`. A sink that
/// conforms only to this one gets every event whole.
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
    /// Every kind, always.
    public func isEnabled(_ kind: EventKind) -> Bool { true }
    /// No optional part.
    public var details: EventDetails { [] }
}
