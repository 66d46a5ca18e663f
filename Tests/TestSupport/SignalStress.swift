import Foundation

/// The rounds a signal test runs: one, or `FAULTLINE_SIGNAL_STRESS` of them
/// (`FAULTLINE_SIGNAL_STRESS=200 swift test --filter Signal` repeats every
/// signal test 200 times). The tests send their signals at named
/// checkpoints (`FAULTLINE_SIGNAL_AT`), so each round plays the same race.
public enum SignalStress {
    public static let rounds: [Int] = Array(1...max(1, Int(ProcessInfo.processInfo.environment["FAULTLINE_SIGNAL_STRESS"] ?? "") ?? 1))

    /// The environment that has perf-run send itself `signal` at `checkpoint`.
    public static func signal(_ signal: Int32, at checkpoint: String) -> [String: String] {
        ["FAULTLINE_SIGNAL_AT": "\(checkpoint):\(signal)"]
    }
}
