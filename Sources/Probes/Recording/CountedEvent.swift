/// What one event adds to the ``Counters``: its kind and the few fields the
/// counters read, whether they come from an ``Event``, from the parts the
/// engine hands the recorder, or from a tracepoint read back from an LTTng
/// trace. The one counting rule for all three is ``Counters/count(_:)``.
public enum CountedEvent: Sendable, Equatable {
    /// A fetch request ran.
    case fetch
    /// `times` object faults from `source` (a traced run of row-cache
    /// faults stands for several).
    case fault(source: FaultSource, times: Int)
    /// A to-many relationship fault from `source`.
    case relationshipFault(source: FaultSource)
    /// A statement ran.
    case sql(rowsReturned: Int, rowsChanged: Int, fullScanSteps: Int, vmSteps: Int)
    /// A context saved, or failed to.
    case save
    /// A batch request ran.
    case batchRequest
    /// A context's state changed, with the registered objects' peak then.
    case context(objectsRegisteredPeak: Int)

    /// What `event` adds; nil for an event no counter reads (a scenario's
    /// phase).
    @inline(__always)
    public init?(_ event: Event) {
        switch event {
        case .fetch: self = .fetch
        case .fault(let e): self = .fault(source: e.source, times: 1)
        case .relationshipFault(let e): self = .relationshipFault(source: e.source)
        case .sql(let e):
            self = .sql(rowsReturned: e.rowsReturned, rowsChanged: e.rowsChanged, fullScanSteps: e.fullScanSteps, vmSteps: e.vmSteps)
        case .save: self = .save
        case .batchRequest: self = .batchRequest
        case .context(let e): self = .context(objectsRegisteredPeak: e.objectsRegisteredPeak)
        case .scenario: return nil
        }
    }

    /// The kind of event counted.
    public var kind: EventKind {
        switch self {
        case .fetch: .fetch
        case .fault: .fault
        case .relationshipFault: .relationshipFault
        case .sql: .sql
        case .save: .save
        case .batchRequest: .batchRequest
        case .context: .context
        }
    }
}
