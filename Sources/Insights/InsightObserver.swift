/// Something told of each insight an ``InsightWatch`` finds while an
/// application runs: the logging bridge (a warning with its site), the
/// metrics bridge (`faultline_insights_total{rule=…}`), a test's collector.
///
/// Called on the thread that ended the watch's window (a context's
/// outermost `perform` returning, or ``InsightWatch/check()``), outside
/// any lock of the watch's.
public protocol InsightObserver: AnyObject, Sendable {
    /// One insight found in the window that just ended, to be acted on
    /// (neither accepted nor intended in the watch's settings).
    func observe(_ insight: Insight)
}
