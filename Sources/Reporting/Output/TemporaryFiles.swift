import Foundation

/// Files a command makes for a while (an output's temporary copy before
/// its rename, a scratch store): registered while they exist, so that a
/// signal that ends the process (``TerminationSignals``) removes them
/// rather than leaving them behind for ever.
public enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: [Int: String] = [:]
        var next = 0
    }

    private static let registry = Registry()

    /// A registered file, until ``remove()`` or ``keep()``.
    public struct Registration: Sendable {
        let key: Int
        public let path: String

        /// Removes the file, with a store's companions, and forgets it.
        public func remove() {
            keep()
            TemporaryFiles.unlinkWithCompanions(path)
        }

        /// Forgets the file without removing it: it is no longer temporary
        /// (renamed into place, or removed by its owner).
        public func keep() {
            registry.lock.lock()
            registry.paths[key] = nil
            registry.lock.unlock()
        }
    }

    /// Registers `path` (a file, or a SQLite store whose `-wal`, `-shm`
    /// and `-journal` files are removed with it).
    public static func register(_ path: String) -> Registration {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.next += 1
        registry.paths[registry.next] = path
        return Registration(key: registry.next, path: path)
    }

    /// The paths registered now.
    public static var registered: [String] {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return registry.paths.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Removes every registered file, with a store's companions.
    public static func removeAll() {
        registry.lock.lock()
        let paths = registry.paths.values
        registry.paths = [:]
        registry.lock.unlock()
        for path in paths { unlinkWithCompanions(path) }
    }

    static func unlinkWithCompanions(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
