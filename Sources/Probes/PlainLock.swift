#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A pthread mutex, held directly and locked around an inlined closure.
///
/// For the engine's hottest paths (a row cache lookup and a recorded event
/// per fault): `NSLock` puts a class and dynamic dispatch around the same
/// two calls, and `Synchronization.Mutex`'s `sending` closure retained and
/// released everything the closure captured, which cost more than the lock.
/// The caller keeps the guarded state beside the lock and touches it only
/// inside ``withLock(_:)``.
public final class PlainLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inlinable @inline(__always)
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
