import Foundation
import Synchronization

/// The SQL debug log: human-readable lines in the spirit of Core Data's
/// `-com.apple.CoreData.SQLDebug`, to standard error or a file.
///
/// Levels as Core Data's: 1 statements with their timing and row counts,
/// and annotations for fetches, counts, faults (from the database or the
/// row cache), relationship faults, prefetches and saves; 2 adds bound
/// values; 3 adds fetched object IDs and values; 4 adds `EXPLAIN QUERY PLAN`
/// for each statement shape (those EXPLAIN statements are not counted).
/// The format is specified line by line in docs/sql-debug-log.md.
public final class SQLDebugLogSink: EventSink {
    public let level: Int
    private let output: Mutex<TextOutput>

    /// Where the log goes.
    public enum Destination: Sendable {
        case standardError
        case file(String)
    }

    /// - Parameter level: 1 to 4 (clamped).
    public init(level: Int, destination: Destination = .standardError) throws {
        self.level = min(4, max(1, level))
        switch destination {
        case .standardError:
            output = Mutex(TextOutput(handle: FileHandle.standardError))
        case .file(let path):
            // Appended to, as `>>` does: a regular file grows, a device,
            // FIFO or symbolic link is written through, never replaced.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
            output = Mutex(TextOutput(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)))
        }
    }

    /// A log file that cannot be opened for writing, in one line.
    public struct OpenError: Error, CustomStringConvertible, Sendable {
        public let path: String
        /// The system's reason ("No such file or directory").
        public let reason: String
        public var description: String { "cannot write the SQL log \(path): \(reason)" }
    }

    /// A sink writing through `write` (for tests and in-memory use).
    public init(level: Int, write: @escaping @Sendable (String) -> Void) {
        self.level = min(4, max(1, level))
        output = Mutex(TextOutput(write: write))
    }

    /// Context events only for the prefetch usage lines; refreshes are
    /// not asked for (``details`` has no ``EventDetails/contextChanges``).
    public func isEnabled(_ kind: EventKind) -> Bool {
        switch kind {
        case .cacheMiss, .scenario: false
        default: true
        }
    }

    /// The level does not change.
    public var possibleDetails: EventDetails { details }

    public var details: EventDetails {
        var details: EventDetails = []
        if level >= 2 { details.insert(.sqlArguments) }
        if level >= 3 { details.insert(.objectValues) }
        if level >= 4 { details.insert(.queryPlans) }
        return details
    }

    public func receive(_ event: Event) {
        let lines = SQLDebugLogFormat.lines(for: event, level: level)
        guard !lines.isEmpty else { return }
        var text = ""
        for line in lines {
            text += line
            text += "\n"
        }
        output.withLock { $0.write(text) }
    }

    /// The sink the environment asks for: `FAULTLINE_SQL_DEBUG=1…4`, to the
    /// file `FAULTLINE_SQL_LOG` or standard error. nil when not asked for.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SQLDebugLogSink? {
        guard let text = environment["FAULTLINE_SQL_DEBUG"], let level = Int(text), level >= 1 else { return nil }
        if let path = environment["FAULTLINE_SQL_LOG"], !path.isEmpty {
            return try? SQLDebugLogSink(level: level, destination: .file(path))
        }
        return try? SQLDebugLogSink(level: level)
    }
}

/// A destination for text: a file handle or a closure.
struct TextOutput: ~Copyable {
    private let handle: FileHandle?
    private let writer: (@Sendable (String) -> Void)?

    init(handle: FileHandle) {
        self.handle = handle
        self.writer = nil
    }

    init(write: @escaping @Sendable (String) -> Void) {
        self.handle = nil
        self.writer = write
    }

    func write(_ text: String) {
        if let writer { writer(text) }
        if let handle { handle.write(Data(text.utf8)) }
    }
}
