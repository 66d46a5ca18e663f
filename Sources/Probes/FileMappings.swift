/// Keeps the process's file mappings still while ``CallerLine`` lists the
/// loaded images.
///
/// The Swift runtime's `ImageMap.capture()` reads the first bytes of every
/// file mapped into the process in place, looking for an ELF header. A
/// file unmapped meanwhile on another thread (SQLite's shared-memory file,
/// when a connection to a WAL database closes) stopped the program with a
/// bad pointer dereference: two threads, one capturing and one opening and
/// closing a WAL database, crash within milliseconds. The engine closes
/// its SQLite connections under ``holdingStill(_:)``, and ``CallerLine``
/// captures under it, so Faultline's own unmapping never meets the
/// capture. Code outside Faultline that unmaps files is not held back.
public enum FileMappings {
    private static let lock = PlainLock()

    /// Runs `body` while no other caller of this function runs: around a
    /// capture of the images, and around anything of Faultline's that
    /// unmaps a file (closing a SQLite connection).
    public static func holdingStill<R>(_ body: () throws -> R) rethrows -> R {
        try lock.withLock(body)
    }
}
