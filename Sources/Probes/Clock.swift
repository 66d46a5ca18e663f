import CTracepoints

/// Time and thread identity for events.
public enum ProbeClock {
    /// Nanoseconds on the monotonic clock.
    @inline(__always)
    public static func now() -> UInt64 { faultline_monotonic_ns() }

    /// The calling thread's Linux thread ID (cached per thread).
    @inline(__always)
    public static func threadID() -> Int32 { faultline_thread_id() }

    /// The calling thread's name, "" when it has none.
    public static func threadName() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard faultline_thread_name(&buffer, UInt(buffer.count)) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
