import Synchronization

/// One context's run of row-cache faults, which the context extends in
/// place, for a sink that traces such faults by runs
/// (``EventSink/keepsRowCacheFaultRuns``: the LTTng sink).
///
/// Why: a fault loop's row-cache faults are its commonest traced events,
/// and the sink traces consecutive ones of one context, entity and call
/// site as one event with their count. Sent to the sink one by one, each
/// fault cost the call, the sink's lock and the comparisons behind it,
/// about 290 instructions under an LTTng session, while the fault itself
/// costs about 400. Extended here, a fault that continues the run costs
/// two comparisons and one atomic compare-and-swap, with no call.
///
/// Who does what:
/// - The context (its one writer at a time) keeps what continues the run
///   (``entity``, ``callSite``), extends it (``extend(entity:callSite:durationNanoseconds:)``)
///   and, when a fault does not continue it, asks the sink to start a new
///   one (``EventSink/startRowCacheFaultRun(_:durationNanoseconds:event:)``).
/// - The sink, under its own lock, opens the run with its first fault
///   (``open(first:durationNanoseconds:)``) and ends it (``close()``) when
///   anything else is traced, on whatever thread, as it ends the runs it
///   holds itself: the trace's order is the same as if each fault had
///   been sent.
///
/// The count and the summed duration share one atomic word with a "closed"
/// bit, so that a fault counted by the context while another thread closes
/// the run is either in the run's event or, its extension refused, the
/// first of the next run: never in both, never lost.
public final class RowCacheFaultRun: @unchecked Sendable {
    /// The closed bit, the count (23 bits) and the nanoseconds (40 bits,
    /// about 18 minutes): a run that would overflow either ends, and the
    /// fault starts the next.
    @usableFromInline let state = Atomic<UInt64>(RowCacheFaultRun.closed)
    @usableFromInline static var closed: UInt64 { 1 << 63 }
    @usableFromInline static var countShift: UInt64 { 40 }
    @usableFromInline static var countLimit: UInt64 { (1 << 23) - 1 }
    @usableFromInline static var durationMask: UInt64 { (1 << 40) - 1 }

    /// What continues the run: the entity (its description's identity) and
    /// the call site. Read and written by the context alone, which makes
    /// the exclusivity checks each access would otherwise pay unnecessary
    /// (they cost more than the run saves).
    @exclusivity(unchecked) @usableFromInline var entity: ObjectIdentifier?
    @exclusivity(unchecked) @usableFromInline var callSite = CallSite.unknown

    /// The run's first fault, traced with the run's count and time. Read
    /// and written by the sink alone, under its lock.
    @exclusivity(unchecked) public var first: FaultEvent?

    /// A closed run, which the sink opens with its first fault.
    public init() {}

    /// Counts a fault that continues the open run (the same entity and call
    /// site); false, counting nothing, when the run is closed, full or
    /// continued by something else. By the context only.
    @inlinable @inline(__always)
    public func extend(entity: ObjectIdentifier, callSite site: CallSite, durationNanoseconds: UInt64) -> Bool {
        matches(entity: entity, callSite: site) && extend(durationNanoseconds: durationNanoseconds)
    }

    /// Whether a fault of `entity` at `site` would continue the run (if
    /// it is open). Apart from ``extend(durationNanoseconds:)``, so that a
    /// caller can compare a site where it is kept: across the atomic
    /// update, the compiler copies it (a retain and a release per fault).
    @inlinable @inline(__always)
    public func matches(entity: ObjectIdentifier, callSite site: CallSite) -> Bool {
        entity == self.entity && site.line == callSite.line && site.file == callSite.file
    }

    /// Counts a fault that ``matches(entity:callSite:)``; false, counting
    /// nothing, when the run is closed or full. By the context only.
    @inlinable @inline(__always)
    public func extend(durationNanoseconds: UInt64) -> Bool {
        let current = state.load(ordering: .relaxed)
        guard current & Self.closed == 0, current >> Self.countShift < Self.countLimit,
            durationNanoseconds <= Self.durationMask - current & Self.durationMask
        else { return false }
        let next = current &+ (1 << Self.countShift) &+ durationNanoseconds
        return state.compareExchange(expected: current, desired: next, ordering: .relaxed).exchanged
    }

    /// What the next fault must match to continue the run the context asks
    /// the sink to start. By the context only, before it asks.
    @inlinable
    public func expect(entity: ObjectIdentifier, callSite site: CallSite) {
        self.entity = entity
        callSite = site
    }

    /// Opens the run with its first fault. By the sink, under its lock,
    /// once the run is closed.
    public func open(first event: FaultEvent, durationNanoseconds: UInt64) {
        first = event
        state.store(1 << Self.countShift | min(durationNanoseconds, Self.durationMask), ordering: .relaxed)
    }

    /// Closes the run: its first fault, count and summed duration if it was
    /// open, nil if not. By the sink, under its lock.
    public func close() -> (first: FaultEvent, count: UInt64, durationNanoseconds: UInt64)? {
        let ended = state.bitwiseOr(Self.closed, ordering: .relaxed).oldValue
        guard ended & Self.closed == 0, let first else { return nil }
        self.first = nil
        return (first, ended >> Self.countShift, ended & Self.durationMask)
    }

    /// The open run's first fault, count and summed duration, left open;
    /// nil when it is closed. By the sink, under its lock.
    public var pending: (first: FaultEvent, count: UInt64, durationNanoseconds: UInt64)? {
        let current = state.load(ordering: .relaxed)
        guard current & Self.closed == 0, let first else { return nil }
        return (first, current >> Self.countShift, current & Self.durationMask)
    }
}
