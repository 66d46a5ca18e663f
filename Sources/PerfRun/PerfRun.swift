import ArgumentParser

@main
struct PerfRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perf-run",
        abstract: "Runs Faultline's performance scenarios and reports what the persistence code did.")
}
