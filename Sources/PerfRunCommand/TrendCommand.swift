import ArgumentParser

extension PerfRun {
    /// `perf-run trend`: scenarios across commits. The Pushgateway keeps
    /// only the last push per group, and its series carry no commit, so the
    /// trend is read from the history store, not from Prometheus.
    struct TrendCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trend",
            abstract: "Shows scenarios' counters and wall times per commit, from the history store.")

        @Argument(help: "Scenarios to show.")
        var scenarios: [String] = []

        @Option(help: "No longer read: Prometheus keeps no per-commit series (docs/prometheus.md).")
        var prometheus: String?

        func validate() throws {
            throw ValidationError("trend reads the history store (the history command), not Prometheus: Prometheus keeps no per-commit series")
        }

        func run() throws {}
    }
}
