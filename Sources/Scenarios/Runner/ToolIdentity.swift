/// The command that runs scenarios, as its help and its reports name it:
/// `perf-run` for Faultline's own, an application's own command
/// (`blog-perf 1.4.0`) for its scenarios, so that a report says which
/// program, at which version, made it.
public struct ToolIdentity: Sendable, Equatable {
    /// The command's name, as typed (`blog-perf`).
    public var name: String
    /// The application's version (`1.4.0`).
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// Faultline's own command.
    public static let perfRun = ToolIdentity(name: "perf-run", version: RunReport.toolVersion)
}
