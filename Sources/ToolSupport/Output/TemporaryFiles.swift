import Foundation

/// Files a command makes for a while (an output's temporary copy before
/// its rename, a scratch store): registered while they exist, so that a
/// signal that ends the process (``TerminationSignals``) removes them
/// rather than leaving them behind for ever.
public enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: [Int: Entry] = [:]
        var next = 0
        var afterUnlinkPass: (@Sendable (String, Int) -> Void)?
    }

    /// A registered file, and the directory made for it alone, if any.
    fileprivate struct Entry: Sendable {
        let path: String
        let directory: String?

        func remove() {
            if let directory { TemporaryFiles.removeDirectory(directory) } else { TemporaryFiles.unlinkWithCompanions(path) }
        }
    }

    private static let registry = Registry()

    /// A registered file, until ``remove()`` or ``keep()``.
    public struct Registration: Sendable {
        let key: Int
        private let entry: Entry
        public var path: String { entry.path }

        fileprivate init(key: Int, entry: Entry) {
            self.key = key
            self.entry = entry
        }

        /// Removes the file, with a store's companions (or the directory
        /// made for it, with whatever is in it), and forgets it.
        public func remove() {
            // Removed before it is forgotten: a signal in between removes
            // it again (a no-op) rather than leaving part of it behind.
            entry.remove()
            keep()
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
        register(Entry(path: path, directory: nil))
    }

    /// Registers `path`, a file in `directory`, a directory made for it
    /// alone (before the directory is made): removing it removes the
    /// directory and everything in it. Why: a SQLite store's connection
    /// still opening when a signal's clean-up runs can create its `-wal`
    /// and `-shm` again after they were removed; once the directory is
    /// gone, nothing can be made in it.
    public static func register(_ path: String, inDirectoryOfItsOwn directory: String) -> Registration {
        register(Entry(path: path, directory: directory))
    }

    private static func register(_ entry: Entry) -> Registration {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.next += 1
        registry.paths[registry.next] = entry
        return Registration(key: registry.next, entry: entry)
    }

    /// The paths registered now.
    public static var registered: [String] {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return registry.paths.sorted { $0.key < $1.key }.map(\.value.path)
    }

    /// Removes every registered file, with a store's companions, and every
    /// registered directory.
    public static func removeAll() {
        registry.lock.lock()
        let entries = registry.paths.values
        registry.paths = [:]
        registry.lock.unlock()
        for entry in entries { entry.remove() }
    }

    /// Removes `directory` and the files in it (a link in it is removed,
    /// not what it points to), again while something another thread still
    /// makes appears in it (at most 100 times); a directory that is gone
    /// already is fine. A link at `directory` itself is not followed (it
    /// stays, with what it points to): the directory is opened once
    /// without following one, each pass removes the files of the
    /// directory opened (not what the path names by then), and the path
    /// is removed only if, checked just before, it still names that
    /// directory (`rmdir` removes only an empty directory: at worst an
    /// empty one put there in that instant goes). The parent directories
    /// of the path are the caller's to trust.
    public static func removeDirectory(_ directory: String) {
        let opened = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else {
            // An empty directory this process may not read (not one of its
            // own making: those are 0700) goes as before: `rmdir` needs no
            // read permission.
            let code = errno
            var info = stat()
            if code == EACCES, lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { rmdir(directory) }
            return
        }
        defer { close(opened) }
        var own = stat()
        guard fstat(opened, &own) == 0 else { return }
        for pass in 1...100 {
            unlinkFiles(in: opened)
            afterUnlinkPass?(directory, pass)
            var named = stat()
            guard lstat(directory, &named) == 0, named.st_dev == own.st_dev, named.st_ino == own.st_ino else { return }
            if rmdir(directory) == 0 || errno == ENOENT || errno == ENOTDIR { return }
            guard errno == ENOTEMPTY || errno == EEXIST else { return }
        }
    }

    /// Testing aid: called after each pass of ``removeDirectory(_:)`` that
    /// removed a directory's files, with the directory and the pass's
    /// number (from 1).
    static var afterUnlinkPass: (@Sendable (String, Int) -> Void)? {
        get {
            registry.lock.lock()
            defer { registry.lock.unlock() }
            return registry.afterUnlinkPass
        }
        set {
            registry.lock.lock()
            registry.afterUnlinkPass = newValue
            registry.lock.unlock()
        }
    }

    /// Unlinks every entry of the open directory but `.` and `..` (a
    /// subdirectory stays: these directories hold files only).
    private static func unlinkFiles(in directory: Int32) {
        // A descriptor of its own for each listing, read from the start: a
        // `dup` would share the first listing's offset, left at its end, so
        // that a file made after the first pass was never listed.
        let listed = openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listed >= 0 else { return }
        guard let listing = fdopendir(listed) else {
            close(listed)
            return
        }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { name in
                    let isDot = name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
                    if !isDot { unlinkat(directory, name, 0) }
                }
            }
        }
    }

    static func unlinkWithCompanions(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
