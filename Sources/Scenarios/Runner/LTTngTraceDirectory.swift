import Foundation

/// The directory `perf-run run --lttng` records into (`--lttng-output`).
///
/// Faultline marks a trace directory it makes with a small file,
/// ``markerName``, written before the session starts. An earlier trace is
/// replaced only when its directory has that mark and nothing but what an
/// LTTng trace holds (``traceEntries``); then those entries are removed, and
/// nothing else. Anything else (a file of the user's beside a `ust` folder,
/// a trace without the mark, a file) is refused with one line naming the
/// directory, and left as it is.
enum LTTngTraceDirectory {
    /// The mark of a trace directory Faultline made.
    static let markerName = ".faultline-trace"
    /// What an LTTng trace's directory holds: a folder per domain, and for
    /// some layouts an index folder and a metadata file.
    static let traceEntries: Set<String> = ["ust", "kernel", "index", "metadata"]

    /// What `--lttng-output` names now, found by ``check(_:)``.
    enum Earlier: Equatable {
        /// Nothing: the directory is made.
        case nothing
        /// An empty directory.
        case empty
        /// A trace Faultline made, with these entries (the mark among them).
        case trace([String])
    }

    /// Whether `directory` can take a new trace, changing nothing: throws
    /// ``LTTngRecording/Unavailable`` with the reason, naming `directory`.
    static func check(_ directory: String) throws -> Earlier {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            if errno == ENOENT { return .nothing }
            throw refusal(directory, "cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw refusal(directory, "exists and is not a directory; not replaced") }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw refusal(directory, "cannot be read: \((error as NSError).localizedDescription)")
        }
        if entries.isEmpty { return .empty }
        guard entries.contains(markerName) else {
            throw refusal(directory, "not a trace Faultline made (no \(markerName) in it); not replaced")
        }
        let foreign = entries.filter { $0 != markerName && !traceEntries.contains($0) }
        guard foreign.isEmpty else {
            throw refusal(directory, "holds \(foreign.joined(separator: ", ")) besides the trace Faultline made; not replaced")
        }
        return .trace(entries)
    }

    /// Removes the earlier trace ``check(_:)`` found (its entries, never the
    /// directory or anything else), makes the directory if needed and marks
    /// it as Faultline's.
    static func prepare(_ directory: String, replacing earlier: Earlier, session: String) throws {
        if case .trace(let entries) = earlier {
            // The mark goes last: a trace half removed is still Faultline's.
            for entry in entries.filter({ $0 != markerName }) + [markerName] {
                let path = URL(fileURLWithPath: directory).appendingPathComponent(entry).path
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    throw refusal(directory, "cannot remove the earlier trace's \(entry): \((error as NSError).localizedDescription)")
                }
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let marker = URL(fileURLWithPath: directory).appendingPathComponent(markerName)
            try Data("""
                An LTTng trace that perf-run (Faultline) recorded in session \(session).
                perf-run run --lttng replaces this directory's trace, and only when this file is here.

                """.utf8).write(to: marker)
        } catch {
            throw refusal(directory, "cannot be made: \((error as NSError).localizedDescription)")
        }
    }

    private static func refusal(_ directory: String, _ reason: String) -> LTTngRecording.Unavailable {
        LTTngRecording.Unavailable(description: "--lttng-output \(directory): \(reason)")
    }
}
