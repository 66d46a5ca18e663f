/// A wall-clock span as the progress display and a run's last line say it:
/// `0.4 s`, `12 s`, `3 min 05 s`, `1 h 02 min`; as precise as a person
/// watching a run needs, no more.
public struct ElapsedText: CustomStringConvertible, Sendable, Equatable {
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The span from `start` to `end` (monotonic nanoseconds); none when
    /// `end` is earlier.
    public init(from start: UInt64, to end: UInt64) {
        self.init(nanoseconds: end >= start ? end - start : 0)
    }

    /// A span a clock measured; none for a negative one.
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(nanoseconds: seconds < 0 ? 0 : UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000))
    }

    public var description: String {
        let seconds = Double(nanoseconds) / 1e9
        if seconds < 9.95 { return "\(Self.oneDecimal(seconds)) s" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(Self.twoDigits(whole % 60)) s" }
        let minutes = Int((seconds / 60).rounded())
        return "\(minutes / 60) h \(Self.twoDigits(minutes % 60)) min"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
