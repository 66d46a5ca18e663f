/// A sink that wants nothing.
public final class NoOpSink: EventSink {
    /// A sink that wants nothing.
    public init() {}
    /// False for every kind.
    public func isEnabled(_ kind: EventKind) -> Bool { false }
    /// Drops the event.
    public func receive(_ event: Event) {}
}
