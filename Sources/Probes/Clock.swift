import CProbeClock
import CTracepoints

/// Time and thread identity for events.
public enum ProbeClock {
    /// Where readings come from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// The CPU's time-stamp counter, scaled to CLOCK_MONOTONIC's
        /// nanoseconds (x86-64, where the kernel's clock source is the
        /// invariant TSC): a third of `clock_gettime`'s cost.
        case timeStampCounter
        /// `clock_gettime(CLOCK_MONOTONIC)`: another CPU or clock source,
        /// `FAULTLINE_CLOCK=kernel` in the environment, or a counter whose
        /// scale could not be measured. (A counter's first millisecond,
        /// until it is measured, is read from the kernel too, but its
        /// source is the counter.)
        case kernel

        /// How reports name it.
        public var description: String {
            switch self {
            case .timeStampCounter: "the time-stamp counter"
            case .kernel: "clock_gettime"
            }
        }
    }

    /// Nanoseconds on the monotonic clock's scale: one time-stamp counter
    /// read where ``source`` says so (readings taken on two CPUs can then be
    /// a few nanoseconds out of order: take durations with
    /// ``nanoseconds(since:)``).
    @inlinable @inline(__always)
    public static func now() -> UInt64 { faultline_clock_now() }

    /// Nanoseconds from `start`, a reading of ``now()``, until now: never
    /// wraps (0 when now reads earlier).
    @inlinable @inline(__always)
    public static func nanoseconds(since start: UInt64) -> UInt64 { faultline_clock_since(start) }

    /// `clock_gettime(CLOCK_MONOTONIC)` itself, for measuring the engine
    /// from outside (the benchmarks), with a clock the engine does not use.
    public static func kernelNow() -> UInt64 { faultline_clock_kernel() }

    /// Where ``now()`` readings come from (deciding, if no reading was
    /// taken yet): the time-stamp counter as soon as it is chosen, though
    /// the readings of its first millisecond, until it is measured, are the
    /// kernel's. (Saying "the kernel" then made a process that asked early
    /// disagree with one that asked later on the same machine.)
    public static var source: Source { faultline_clock_source() == 2 ? .timeStampCounter : .kernel }

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
