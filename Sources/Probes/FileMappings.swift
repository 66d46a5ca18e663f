import Foundation

/// Keeps the process's file mappings still while ``CallerLine`` lists the
/// loaded images.
///
/// The Swift runtime's `ImageMap.capture()` reads the first bytes of every
/// file mapped into the process in place, looking for an ELF header. A
/// file unmapped meanwhile on another thread (SQLite's shared-memory file,
/// when the last connection to a WAL database closes or leaves WAL mode)
/// makes that read a bad pointer dereference: two threads, one capturing
/// and one opening and closing a WAL database, stop the program within
/// milliseconds (Tests/FileMappingsCheck). The engine closes its SQLite
/// connections and finalizes statements (a connection closed while one
/// of its statements lives closes with that statement) under
/// ``holdingStill(_:)``, the data-set cache leaves WAL mode under it,
/// ``LTTngSink/load(providerPath:)`` maps the tracepoint provider (and
/// unmaps one of another version) under it, and ``CallerLine`` captures
/// under it, so Faultline's own unmapping never meets the capture.
/// Anything else that maps or unmaps files (an application's own
/// `PRAGMA journal_mode = DELETE`, its own `sqlite3` handles opened
/// without ``Connection``, its own `dlopen` and `dlclose`, lttng-ust's
/// ring buffers mapped when a session starts or ends) is not held back.
public enum FileMappings {
    /// A lock that parks a waiting thread: what it guards (closing a
    /// database checkpoints and syncs it) can take milliseconds.
    private static let lock = NSLock()

    /// Runs `body` while no other caller of this function runs: around a
    /// capture of the images, and around anything of Faultline's that
    /// may unmap a file.
    public static func holdingStill<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
