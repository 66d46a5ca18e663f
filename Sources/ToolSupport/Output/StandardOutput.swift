import Foundation
import Probes

#if canImport(Glibc)
import Glibc
#endif

/// Standard output, written with every error seen: a full disk (`>
/// Model.swift` on a full file system) or a closed descriptor is an
/// ``OutputError``, so the command exits 2 instead of 0 with a truncated
/// file. `print` would drop those errors in its buffer.
public enum StandardOutput {
    /// Writes `text` whole.
    public static func write(_ text: String) throws(OutputError) {
        try write(Data(text.utf8))
    }

    /// Writes `data` whole.
    public static func write(_ data: Data) throws(OutputError) {
        if let failure = OutputFile.writeAll(data, to: STDOUT_FILENO) {
            throw OutputError(.standardOutput, reason: "cannot write: \(String(cString: strerror(failure)))")
        }
    }
}

/// Standard error, for messages: written with write(2), whose errors (a
/// closed descriptor, `2>/dev/full`, a pipe whose reader left) are
/// dropped, since there is nowhere left to say them: FileHandle would stop
/// the program on them, and so would the SIGPIPE of a pipe, ending a run
/// whose progress nobody reads any more before it writes its report.
public enum StandardError {
    public static func write(_ text: String) {
        PipeSignal.writeToStandardError(text)
    }
}
