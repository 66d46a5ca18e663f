import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole input file (a report, a thresholds, noise floor or
/// accepted-insights file) as `cat` does: any readable file, a regular one,
/// a FIFO, a pipe (`<(…)`, `/dev/stdin`) or a character device, read to
/// its end. Every failure is a ``ReportError`` naming the file and the
/// system's reason.
public enum InputFile {
    /// The most bytes read before giving up: no report or settings file is
    /// near it, and an endless device (`/dev/zero`) stops there.
    public static let maximumBytes = 256 << 20

    /// The bytes of `path`. `what` names the kind of file in errors
    /// ("file", "thresholds file", …): "PATH: cannot read the WHAT: REASON".
    public static func read(_ path: String, what: String = "file") throws(ReportError) -> Data {
        func failure(_ reason: String) -> ReportError { ReportError("\(path): cannot read the \(what): \(reason)") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { readSystemCall(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(String(cString: strerror(errno)))
            }
            data.append(buffer, count: count)
            if data.count > maximumBytes { throw failure("larger than \(maximumBytes >> 20) MiB") }
        }
    }
}

/// `read(2)`, under a name no `read` method hides.
package func readSystemCall(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
