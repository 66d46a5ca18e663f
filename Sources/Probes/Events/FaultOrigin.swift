import CTracepoints

/// Where a lazily loaded object came from: the fetch that first produced
/// it (or the object it was reached from) and the key path from that
/// fetch's objects to it. The engine gives it to every fault and
/// relationship fault, so that a lazy load is known by the query its
/// object came from, as Bullet and nplusone know an N+1: several objects of
/// one query each loading something on its own.
public struct FaultOrigin: Sendable, Hashable, Codable {
    /// The entity the fetch asked for.
    public var fetchEntity: String
    /// Where the fetch was asked for.
    public var fetchSite: CallSite
    /// The relationships walked from the fetch's objects to the loaded
    /// one (`author`, `comments`, `author.company`); "" for the fetch's own
    /// objects. Prefetching this key path on that fetch loads them with it.
    public var keyPath: String
    /// Which run of the fetch, numbered per process (store-wide): the
    /// objects of one execution are the objects of one query.
    public var execution: UInt64

    /// An origin: the objects of run `execution` of the fetch of
    /// `fetchEntity` at `fetchSite`, reached through `keyPath` ("" for the
    /// fetch's own objects).
    public init(fetchEntity: String, fetchSite: CallSite, keyPath: String, execution: UInt64) {
        self.fetchEntity = fetchEntity
        self.fetchSite = fetchSite
        self.keyPath = keyPath
        self.execution = execution
    }
}

/// Why the row cache could not serve a fault: the raw values are the
/// `miss_reason` of `faultline:fault` and `faultline:relationship_fault`
/// events whose source is the database, and the reason of SQL debug log
/// lines.
public enum CacheMissReason: String, Sendable, Codable {
    /// The row cache held no snapshot of the row.
    case absent
    /// It held one older than the context's staleness interval.
    case stale

    /// The value of the tracepoints' `miss_reason` enumeration
    /// (`faultline_miss_reason`), whose labels are the raw values.
    var traceValue: Int32 {
        let value = switch self {
        case .absent: FAULTLINE_MISS_ABSENT
        case .stale: FAULTLINE_MISS_STALE
        }
        return Int32(value.rawValue)
    }
}
