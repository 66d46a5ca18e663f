import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A lock for the engine's hottest paths (a row cache lookup and a recorded
/// event per fault), locked around an inlined closure.
///
/// Taking it when it is free is one atomic compare-and-swap, and giving it
/// back one atomic store: a pthread mutex's lock and unlock calls cost about
/// 55 instructions together, a twelfth of a row-cache fault without sinks.
/// A thread that finds it taken spins a little, then yields its processor
/// until the lock is free. That suits what it guards: a few table
/// operations or counter updates, never I/O, a wait or a user's callback.
/// `NSLock` puts a class and dynamic dispatch around a pthread mutex, and
/// `Synchronization.Mutex`'s `sending` closure retained and released
/// everything the closure captured, which cost more than the lock. The
/// caller keeps the guarded state beside the lock and touches it only
/// inside ``withLock(_:)`` or between ``lock()`` and ``unlock()``. Not
/// recursive.
public final class PlainLock: @unchecked Sendable {
    @usableFromInline let isLocked = Atomic<Bool>(false)

    /// A free lock.
    public init() {}

    /// Runs `body` with the lock held.
    @inlinable @inline(__always)
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            waitForLock()
        }
        defer { isLocked.store(false, ordering: .releasing) }
        return try body()
    }

    /// Takes the lock, for a caller that gives it back with ``unlock()``
    /// on every path: one whose work cannot throw, and whose parameters a
    /// closure would copy (a non-escaping closure over a function's
    /// parameters retained and released each string it captured, about 90
    /// instructions for a traced statement's texts).
    @inlinable @inline(__always)
    public func lock() {
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            waitForLock()
        }
    }

    /// Gives back the lock ``lock()`` took.
    @inlinable @inline(__always)
    public func unlock() {
        isLocked.store(false, ordering: .releasing)
    }

    /// Takes the lock another thread holds, once it lets go.
    @usableFromInline @inline(never)
    func waitForLock() {
        var attempts = 0
        while true {
            if !isLocked.load(ordering: .relaxed),
               isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                return
            }
            attempts += 1
            if attempts > 100 { sched_yield() }
        }
    }
}
