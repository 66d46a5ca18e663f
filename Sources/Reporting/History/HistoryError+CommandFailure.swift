import ToolSupport

extension HistoryError: CommandFailure {
    /// A history that cannot be named, opened, read or written: exit 2,
    /// with the reason (a run's reports are written before it is recorded).
    public var exitStatus: ExitStatus { .badInput }
}
