import Foundation
import ObjectGraph
import ToolSupport

/// A data set that could not be built, copied or verified, or a data set
/// cache that is not safe to use: one line naming the file, what failed
/// and why, in the system's words:
///
/// ```
/// /tmp/faultline-datasets/selfies-scale4.0-seed1-g1.sqlite: cannot build the data set: No space left on device
/// ```
///
/// It is the environment's failure (a full disk, a cache another user
/// planted), not the scenario's: a run stops at it, the scenarios after it
/// are skipped, and perf-run exits with 2 (``ScenarioRunner/Interruption``).
public struct DataSetFailure: Error, Sendable, CustomStringConvertible {
    /// The file or directory it is about.
    public let path: String
    /// What is wrong with it, and what to do when that is not plain.
    public let problem: String
    /// The whole line, when it does not read "`path`: `problem`".
    private let line: String?

    public init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
        self.line = nil
    }

    /// A line of its own about `path` (the temporary directory, say).
    init(line: String, path: String) {
        self.path = path
        self.problem = line
        self.line = line
    }

    /// `action` failed with the system's `errno`: "`path`: `action`: reason".
    public init(_ path: String, _ action: String, errno code: Int32) {
        self.init(path, "\(action): \(String(cString: strerror(code)))")
    }

    /// `action` failed with `error`: "`path`: `action`: reason", the reason
    /// in the system's words where the error carries them.
    public init(_ path: String, _ action: String, error: any Error) {
        self.init(path, "\(action): \(Self.reason(of: error))")
    }

    public var description: String { line ?? "\(path): \(problem)" }

    /// What went wrong, in the system's words: `strerror` of an errno
    /// (POSIX, a Foundation file error's underlying one), "No space left on
    /// device" for SQLite's `SQLITE_FULL` (a full disk: SQLite keeps the
    /// errno to itself), SQLite's message for its other errors, else the
    /// error's own one-line description.
    static func reason(of error: any Error) -> String {
        switch error {
        case let failure as DataSetFailure:
            return failure.problem
        case let error as POSIXError:
            return String(cString: strerror(error.code.rawValue))
        case let error as SQLiteError:
            return reason(of: error)
        case let error as ObjectGraphError:
            switch error {
            case .store(_, _, let sqlite?), .saveFailed(let sqlite):
                return reason(of: sqlite)
            default:
                return error.description
            }
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(underlying.code)))
            }
            return error.localizedDescription
        default:
            return String(describing: error).replacingOccurrences(of: "\n", with: " ")
        }
    }

    private static func reason(of error: SQLiteError) -> String {
        error.resultCode == sqliteFull ? String(cString: strerror(ENOSPC)) : error.message
    }

    /// `SQLITE_FULL`, "database or disk is full".
    private static let sqliteFull: Int32 = 13
}

extension POSIXError {
    /// The error `errno` holds now.
    static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

extension DataSetFailure: CommandFailure {
    /// A data set that cannot be made or trusted: the environment is
    /// unusable, as for bad input.
    public var exitStatus: ExitStatus { .badInput }
}
