import Synchronization

/// Keeps every event it receives, for tests and small tools.
public final class InMemorySink: EventSink {
    private let storage = Mutex<[Event]>([])
    public let details: EventDetails
    public var possibleDetails: EventDetails { details }

    /// - Parameter details: by default every context change too.
    public init(details: EventDetails = [.contextChanges]) { self.details = details }

    public func receive(_ event: Event) {
        storage.withLock { $0.append(event) }
    }

    /// The events received so far, in order.
    public var events: [Event] { storage.withLock { $0 } }

    /// Forgets the events received so far.
    public func removeAll() { storage.withLock { $0.removeAll() } }
}
