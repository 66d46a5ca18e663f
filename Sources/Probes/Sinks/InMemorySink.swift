import Synchronization

/// Keeps every event it receives, for tests and small tools.
public final class InMemorySink: EventSink {
    private let storage = Mutex<[Event]>([])
    /// The optional parts the sink asks for, always.
    public let details: EventDetails
    /// ``details``: they never change.
    @_spi(FastPath) public var possibleDetails: EventDetails { details }

    /// - Parameter details: by default every context change too.
    public init(details: EventDetails = [.contextChanges]) { self.details = details }

    /// Appends the event, whatever its kind.
    public func receive(_ event: Event) {
        storage.withLock { $0.append(event) }
    }

    /// The events received so far, in order.
    public var events: [Event] { storage.withLock { $0 } }

    /// Forgets the events received so far.
    public func removeAll() { storage.withLock { $0.removeAll() } }
}

@_spi(FastPath) extension InMemorySink: FastPathEventSink {}
