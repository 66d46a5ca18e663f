import Synchronization

/// One context's run of refreshes, which the context extends in place, for
/// a sink that traces refreshes by runs (``EventSink/keepsRefreshRuns``:
/// the LTTng sink), as ``RowCacheFaultRun`` does for row-cache faults.
///
/// A refresh loop refreshes each object it reads; sent to the sink one by
/// one, each refresh cost about 220 instructions under an LTTng session
/// (the questions whether the sink wants it, the call, the sink's lock),
/// more than the refresh itself. Here a refresh that continues the run is
/// one compare-and-swap and two stores.
///
/// The count and a "closed" bit share one atomic word: a refresh counted
/// while another thread closes the run is either in the run's event or,
/// refused, the first of the next run. The registration counts are the
/// last refresh's, stored after it is counted: a run that another thread
/// closes at that moment may carry an adjacent refresh's counts (gauges,
/// not counted; a context alone always gets its last refresh's).
public final class RefreshRun: @unchecked Sendable {
    @usableFromInline let state = Atomic<UInt64>(RefreshRun.closed)
    @usableFromInline static var closed: UInt64 { 1 << 63 }
    @usableFromInline let registered = Atomic<Int>(0)
    @usableFromInline let peak = Atomic<Int>(0)

    /// The run's first refresh, traced with the run's count and the last
    /// registration counts. Read and written by the sink alone, under its
    /// lock.
    @exclusivity(unchecked) public var first: ContextEvent?

    /// A closed run, which the sink opens with its first refresh.
    public init() {}

    /// Counts a refresh in the open run, with the registration counts after
    /// it; false, counting nothing, when the run is closed. By the context
    /// only.
    @inlinable @inline(__always)
    public func extend(objectsRegistered: Int, objectsRegisteredPeak: Int) -> Bool {
        let current = state.load(ordering: .relaxed)
        guard current & Self.closed == 0,
            state.compareExchange(expected: current, desired: current &+ 1, ordering: .relaxed).exchanged
        else { return false }
        registered.store(objectsRegistered, ordering: .relaxed)
        peak.store(objectsRegisteredPeak, ordering: .relaxed)
        return true
    }

    /// Opens the run with its first refresh. By the sink, under its lock,
    /// once the run is closed.
    public func open(first event: ContextEvent) {
        first = event
        registered.store(event.objectsRegistered, ordering: .relaxed)
        peak.store(event.objectsRegisteredPeak, ordering: .relaxed)
        state.store(1, ordering: .relaxed)
    }

    /// Closes the run: its refresh event (the first's, with the last
    /// registration counts) and count if it was open, nil if not. By the
    /// sink, under its lock.
    public func close() -> (last: ContextEvent, count: UInt64)? {
        let ended = state.bitwiseOr(Self.closed, ordering: .relaxed).oldValue
        guard ended & Self.closed == 0, var event = first else { return nil }
        first = nil
        event.objectsRegistered = registered.load(ordering: .relaxed)
        event.objectsRegisteredPeak = peak.load(ordering: .relaxed)
        return (event, ended)
    }

    /// The open run as ``close()`` would give it, left open; nil when it is
    /// closed. By the sink, under its lock.
    public var pending: (last: ContextEvent, count: UInt64)? {
        let current = state.load(ordering: .relaxed)
        guard current & Self.closed == 0, var event = first else { return nil }
        event.objectsRegistered = registered.load(ordering: .relaxed)
        event.objectsRegisteredPeak = peak.load(ordering: .relaxed)
        return (event, current)
    }
}
