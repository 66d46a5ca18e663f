import ArgumentParser

/// `faultline-benchmark run` (what `make bench` runs) and the worker it
/// starts for each sample.
@main
struct FaultlineBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faultline-benchmark",
        abstract: "Faultline against the SQLite C API doing the same SQL and against GRDB, in one run.",
        subcommands: [Drive.self, Worker.self], defaultSubcommand: Drive.self)
}
