import Synchronization

/// A store's row-cache faults, counted where they happen instead of sent
/// one by one: the commonest traced event of a fault loop, which a sink
/// that only adds them up (the recorder without an event buffer) reads as
/// totals (``EventSink/rowCacheFaultDelivery``).
///
/// Each context counts in a ``Cell`` of its own: one plain increment per
/// fault of an entity's count and one addition to the time, with no lock
/// and no call (a context runs on one queue at a time, so each cell has
/// one writer); sending the fault to the recorder costs about 130
/// instructions more (the call with its parts, the recorder's lock, its
/// counters). A reader adds up the cells with relaxed atomic loads: the
/// totals are exact once the counted work has returned to the reader (a
/// `perform` block that ended, a task awaited), as a recorder's counters
/// are; read while a context is still faulting on another thread, they
/// hold the faults counted so far. A context's cell is folded into the
/// tally's own totals when the context goes (``retire(_:)``).
public final class RowCacheFaultTally: @unchecked Sendable {
    /// The entities' names, by the position their counts have.
    public let entityNames: [String]
    /// Guards `cells`, `retired` and `closed`.
    private let lock = PlainLock()
    private var cells: [ObjectIdentifier: Cell] = [:]
    private var retired: RowCacheFaultCounts
    private var closed = false

    /// A tally of faults of the entities `entityNames` names.
    public init(entityNames: [String]) {
        self.entityNames = entityNames
        retired = RowCacheFaultCounts(entities: entityNames.count)
    }

    /// A new cell, counted in the totals until it is retired.
    public func makeCell() -> Cell {
        let cell = Cell(entities: entityNames.count)
        lock.withLock { cells[ObjectIdentifier(cell)] = cell }
        return cell
    }

    /// Folds a cell's counts into the tally's own and stops reading it:
    /// its writer (a context) is going.
    public func retire(_ cell: Cell) {
        lock.withLock {
            guard cells.removeValue(forKey: ObjectIdentifier(cell)) != nil else { return }
            cell.add(to: &retired)
        }
    }

    /// Says that no cell will count again (the store is gone): a reader
    /// may forget the tally once it has read its last totals.
    public func close() {
        lock.withLock { closed = true }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { lock.withLock { closed } }

    /// Every fault counted so far, by entity, with their time.
    public func counts() -> RowCacheFaultCounts {
        lock.withLock {
            var total = retired
            for cell in cells.values { cell.add(to: &total) }
            return total
        }
    }

    /// One context's counts: written by that context alone, read by anyone.
    public final class Cell: @unchecked Sendable {
        /// A count per entity, then the nanoseconds.
        @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt64>>
        @usableFromInline let entities: Int

        fileprivate init(entities: Int) {
            self.entities = entities
            slots = .allocate(capacity: entities + 1)
            for index in 0...entities { (slots + index).initialize(to: Atomic<UInt64>(0)) }
        }

        deinit {
            slots.deinitialize(count: entities + 1)
            slots.deallocate()
        }

        /// Counts a fault of the entity at `entity` that took `nanoseconds`.
        /// By the cell's one writer only: a relaxed load and store each
        /// (two plain additions), not an atomic read-modify-write. Inlined
        /// into the engine: a call would retain and release the cell.
        @inlinable @inline(__always)
        public func count(entity: Int, nanoseconds: UInt64) {
            precondition(UInt(bitPattern: entity) < UInt(bitPattern: entities), "entity position out of range")
            let count = slots + entity
            count.pointee.store(count.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            let time = slots + entities
            time.pointee.store(time.pointee.load(ordering: .relaxed) &+ nanoseconds, ordering: .relaxed)
        }

        /// Adds what the cell holds now to `total`.
        fileprivate func add(to total: inout RowCacheFaultCounts) {
            for index in 0..<entities { total.faults[index] &+= slots[index].load(ordering: .relaxed) }
            total.nanoseconds &+= slots[entities].load(ordering: .relaxed)
        }
    }
}

/// Row-cache faults by entity position (``RowCacheFaultTally/entityNames``)
/// and the time they took.
public struct RowCacheFaultCounts: Sendable, Equatable {
    /// Row-cache faults per entity, by position.
    public var faults: [UInt64]
    /// The time those faults took, together.
    public var nanoseconds: UInt64 = 0

    /// No fault yet, for `entities` entities.
    public init(entities: Int) {
        faults = Array(repeating: 0, count: entities)
    }

    /// The counts since `baseline` (taken earlier from the same tally).
    public func since(_ baseline: RowCacheFaultCounts) -> RowCacheFaultCounts {
        var counts = self
        for index in faults.indices { counts.faults[index] &-= baseline.faults[index] }
        counts.nanoseconds &-= baseline.nanoseconds
        return counts
    }
}
