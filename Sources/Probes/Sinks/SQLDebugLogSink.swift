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
    /// The level, 1 to 4: what the log shows besides statements and
    /// annotations (2 bound values, 3 object values, 4 query plans).
    public let level: Int
    /// The destination's name in messages (``WriteFailure``): the name
    /// given to the initializer, else `standard error`, the file's path, or
    /// `file descriptor N`.
    public let destinationName: String
    private let output: Mutex<TextOutput>
    /// Set at the first write error: nothing more is formatted nor written.
    private let stopped = Atomic<Bool>(false)
    /// Told of the first write error, once (``fromEnvironment(_:saying:)``).
    private let onStop: Mutex<(@Sendable (WriteFailure) -> Void)?> = Mutex(nil)

    /// Where the log goes.
    public enum Destination: Sendable {
        /// Standard error, never closed here.
        case standardError
        /// A file, created when missing and appended to.
        case file(String)
        /// A descriptor opened elsewhere, written to and never closed here.
        case descriptor(Int32)
    }

    /// - Parameters:
    ///   - level: 1 to 4 (clamped).
    ///   - name: the destination in messages, as the user named it (say,
    ///     `--sql-log /tmp/x.log`); by default `standard error`, the
    ///     file's path, or `file descriptor N`.
    public init(level: Int, destination: Destination = .standardError, name: String? = nil) throws {
        self.level = min(4, max(1, level))
        switch destination {
        case .standardError:
            destinationName = name ?? "standard error"
            output = Mutex(TextOutput(descriptor: STDERR_FILENO, owned: false, name: destinationName))
        case .file(let path):
            // Appended to, as `>>` does: a regular file grows, a device,
            // FIFO or symbolic link is written through, never replaced.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
            destinationName = name ?? path
            output = Mutex(TextOutput(descriptor: descriptor, owned: true, name: destinationName))
        case .descriptor(let descriptor):
            destinationName = name ?? "file descriptor \(descriptor)"
            output = Mutex(TextOutput(descriptor: descriptor, owned: false, name: destinationName))
        }
    }

    /// A log file that cannot be opened for writing, in one line.
    public struct OpenError: Error, CustomStringConvertible, Sendable {
        /// The file the log was to be written to.
        public let path: String
        /// The system's reason ("No such file or directory").
        public let reason: String
        /// `cannot write the SQL log path: reason`.
        public var description: String { "cannot write the SQL log \(path): \(reason)" }
    }

    /// The log could not be written (a full disk, a closed descriptor, a
    /// pipe whose reader left): the sink stopped at the first error and
    /// wrote nothing after it. The lines before it are whole in the log.
    public struct WriteFailure: Error, CustomStringConvertible, Equatable, Sendable {
        /// The destination's name (``SQLDebugLogSink/destinationName``).
        public let destination: String
        /// The system's error number (`ENOSPC`) and its reason ("No space
        /// left on device").
        public let errorNumber: Int32
        /// The system's reason for `errorNumber` (`strerror`).
        public let reason: String
        /// Whole lines written before the error.
        public let linesWritten: Int

        /// The failure to write to `destination`, with the reason `strerror`
        /// gives for `errorNumber`.
        public init(destination: String, errorNumber: Int32, linesWritten: Int) {
            self.destination = destination
            self.errorNumber = errorNumber
            self.reason = String(cString: strerror(errorNumber))
            self.linesWritten = linesWritten
        }

        /// `--sql-log /mnt/x.log: cannot write: No space left on device
        /// (the log stops after 1,234 lines)`.
        public var description: String {
            "\(destination): cannot write: \(reason) (the log stops after \(linesWritten.groupedDigits) "
                + "line\(linesWritten == 1 ? "" : "s"))"
        }
    }

    /// The first write error, once the sink stopped writing; nil while the
    /// log is written in full.
    public var writeFailure: WriteFailure? { output.withLock { $0.failure } }

    /// Whole lines written so far.
    public var linesWritten: Int { output.withLock { $0.linesWritten } }

    /// A sink writing through `write` (for tests and in-memory use).
    public init(level: Int, write: @escaping @Sendable (String) -> Void) {
        self.level = min(4, max(1, level))
        destinationName = "a closure"
        output = Mutex(TextOutput(write: write))
    }

    /// Every kind: scenario events for the iterations' lines, context
    /// events for the prefetch and fetch usage lines (refreshes are not
    /// asked for: ``details`` has no ``EventDetails/contextChanges``).
    public func isEnabled(_ kind: EventKind) -> Bool { true }

    /// The level does not change.
    @_spi(FastPath) public var possibleDetails: EventDetails { details }

    /// What the level shows: bound values from level 2 (their digest at
    /// level 1), object values from 3, query plans from 4.
    public var details: EventDetails {
        var details: EventDetails = [.sqlArguments]
        if level >= 3 { details.insert(.objectValues) }
        if level >= 4 { details.insert(.queryPlans) }
        return details
    }

    /// Writes the event's lines (``SQLDebugLogFormat/lines(for:level:)``)
    /// together, under the sink's lock; nothing once a write has failed. A
    /// sink made by ``fromEnvironment(_:saying:)`` says the first failure
    /// once.
    public func receive(_ event: Event) {
        guard !stopped.load(ordering: .relaxed) else { return }
        let lines = SQLDebugLogFormat.lines(for: event, level: level)
        guard !lines.isEmpty else { return }
        var text = ""
        for line in lines {
            text += line
            text += "\n"
        }
        let written = output.withLock { $0.write(text, lines: lines.count) }
        if !written, !stopped.exchange(true, ordering: .relaxed), let failure = writeFailure {
            onStop.withLock { told in
                told?(failure)
                told = nil
            }
        }
    }

    /// The sink the environment asks for: `FAULTLINE_SQL_DEBUG=1…4`, to the
    /// file `FAULTLINE_SQL_LOG` or standard error. nil when not asked for.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SQLDebugLogSink? {
        environmentSink(environment, saying: nil)
    }

    /// The sink the environment asks for, for a program that set up no log
    /// of its own and so reads no failure from it (the engine's
    /// ``fromEnvironment(_:)`` users): a log file that cannot be opened, or
    /// a log that stops being written (a full disk, a reader gone), is said
    /// once through `say`, by default a line on standard error beginning
    /// `faultline:`. Without it the log would just be missing.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment, saying say: @escaping @Sendable (String) -> Void
    ) -> SQLDebugLogSink? {
        environmentSink(environment, saying: say)
    }

    /// The level `FAULTLINE_SQL_DEBUG` asks for (as the sink takes it, 1
    /// to 4), nil when it asks for no log; nothing is opened.
    public static func environmentLevel(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        guard let text = environment["FAULTLINE_SQL_DEBUG"], let level = Int(text), level >= 1 else { return nil }
        return min(4, level)
    }

    /// The file `FAULTLINE_SQL_LOG` names for the log, nil when it names
    /// none (the log then goes to standard error); nothing is opened.
    public static func environmentLogPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let path = environment["FAULTLINE_SQL_LOG"], !path.isEmpty else { return nil }
        return path
    }

    /// Both `fromEnvironment`s: failures said through `say` when there is one.
    private static func environmentSink(_ environment: [String: String], saying say: (@Sendable (String) -> Void)?) -> SQLDebugLogSink? {
        guard let level = environmentLevel(environment) else { return nil }
        let text = environment["FAULTLINE_SQL_DEBUG"] ?? ""
        let sink: SQLDebugLogSink
        do {
            if let path = environmentLogPath(environment) {
                sink = try SQLDebugLogSink(level: level, destination: .file(path), name: "FAULTLINE_SQL_LOG=\(path)")
            } else {
                sink = try SQLDebugLogSink(level: level)
            }
        } catch {
            // Once per process: every store configuration asks.
            if let say, !openFailureSaid.exchange(true, ordering: .relaxed) {
                say("faultline: FAULTLINE_SQL_DEBUG=\(text): \(error) (no SQL debug log is written)")
            }
            return nil
        }
        if let say { sink.onStop.withLock { $0 = { say("faultline: the SQL debug log \($0)") } } }
        return sink
    }

    private static let openFailureSaid = Atomic<Bool>(false)

    /// Writes a line on standard error (``PipeSignal/writeToStandardError(_:)``).
    public static func standardErrorLine(_ text: String) {
        PipeSignal.writeToStandardError(text + "\n")
    }
}

/// A destination for text: a file descriptor or a closure. Writing to a
/// descriptor never ends the process: the first error (`ENOSPC`, `EBADF`,
/// `EPIPE`, with SIGPIPE held back) is kept, and nothing is written after it.
struct TextOutput: ~Copyable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let name: String
    private let writer: (@Sendable (String) -> Void)?
    /// Whether the descriptor is a pipe or a socket (writing to one whose
    /// reader left raises SIGPIPE); found at the first write.
    private var isPipe: Bool?
    private(set) var linesWritten = 0
    private(set) var failure: SQLDebugLogSink.WriteFailure?

    init(descriptor: Int32, owned: Bool, name: String) {
        self.descriptor = descriptor
        self.ownsDescriptor = owned
        self.name = name
        self.writer = nil
    }

    init(write: @escaping @Sendable (String) -> Void) {
        descriptor = -1
        ownsDescriptor = false
        name = "a closure"
        writer = write
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Writes `text`, `lines` whole lines; false once writing failed (now
    /// or before).
    mutating func write(_ text: String, lines: Int) -> Bool {
        guard failure == nil else { return false }
        if let writer {
            writer(text)
            linesWritten += lines
            return true
        }
        if isPipe == nil {
            var status = stat()
            isPipe = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFSOCK)
        }
        var text = text
        let (written, error) = text.withUTF8 { bytes in
            isPipe == true
                ? PipeSignal.heldBack({ DescriptorWrite.all(descriptor, bytes) }, brokePipe: { $0.1 == EPIPE }) : DescriptorWrite.all(descriptor, bytes)
        }
        guard let error else {
            linesWritten += lines
            return true
        }
        linesWritten += Self.newlines(in: text.utf8.prefix(written))
        failure = SQLDebugLogSink.WriteFailure(destination: name, errorNumber: error, linesWritten: linesWritten)
        return false
    }

    private static func newlines(in bytes: Substring.UTF8View) -> Int {
        bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}

@_spi(FastPath) extension SQLDebugLogSink: FastPathEventSink {}

extension SQLDebugLogSink {
    /// The event fields it does not write, and why (EventFieldCoverageTests
    /// checks the list against what it writes).
    public static let fieldsLeftOut: [EventField: String] = EventField.leftOut([
        ("a line gives a duration, not a clock time or a thread, as Core Data's log does", [
            .fetch: ["start", "thread"], .fault: ["start", "thread"], .relationshipFault: ["start", "thread"],
            .save: ["start", "thread"], .batchRequest: ["start", "thread"], .sql: ["start", "thread"],
            .context: ["start", "thread"], .scenario: ["start", "thread"],
        ]),
        ("a scenario has lines only for its iterations' begins and ends (the reader judges each iteration apart); its steps are the trace's", [
            .scenario: ["step"],
        ]),
        ("a fault or fetch line names no context, as Core Data's do not (a save's and a prefetch's do)", [
            .fetch: ["context"], .fault: ["context"], .relationshipFault: ["context"],
        ]),
        ("a context change has a line only for a prefetch's or a fetch site's usage: resets, refreshes, merges and registration counts are the recorder's", [
            .context: ["kind", "objectsRegistered", "objectsRegisteredPeak"],
        ]),
        ("the fetch line describes the request as Core Data's does (entity, predicate, sort, prefetch, result); its limit and offset are in its SQL", [
            .fetch: ["fetchBatchSize", "fetchLimit", "fetchOffset", "includesPendingChanges", "includesPropertyValues"],
        ]),
        ("a failed save's line gives its error instead of the counts of a save that succeeded", [
            .save: ["inserted", "updated", "deleted"],
        ]),
        ("a statement's line is its SQL, its bound values and figures; its call site is on the fetch, fault or save line, and shape numbers, VM steps, auto-indexes and facts are the recorder's", [
            .sql: ["callSite", "shape", "shapeID", "textID", "vmSteps", "autoIndexes", "facts"],
        ]),
    ])
}
