import CTracepoints

/// Time and thread identity for events.
public enum ProbeClock {
    /// Nanoseconds on the monotonic clock.
    @inline(__always)
    public static func now() -> UInt64 { faultline_monotonic_ns() }

    /// The calling thread's Linux thread ID (cached per thread).
    @inline(__always)
    public static func threadID() -> Int32 { faultline_thread_id() }
}
