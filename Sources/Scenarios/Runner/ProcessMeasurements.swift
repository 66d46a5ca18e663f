import Foundation

/// CPU time and peak resident memory of this process.
public enum ProcessMeasurements {
    /// User plus system CPU seconds of every thread so far, to the
    /// nanosecond (`CLOCK_PROCESS_CPUTIME_ID`; `getrusage` counts in
    /// microseconds, split by clock ticks).
    static func cpuSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Resets the kernel's peak resident set size (`/proc/self/clear_refs`);
    /// false where that is not allowed.
    @discardableResult
    static func resetPeakResident() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// `VmHWM` from `/proc/self/status`, in bytes: the peak of this
    /// process image only. (`getrusage`'s `ru_maxrss` survives `execve`, so
    /// a process spawned by a larger one reports the parent's peak.)
    public static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let number = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
