import ArgumentParser
import Reporting
import Scenarios

// Option values the commands share, as types: argument-parser checks them
// and lists the choices in the help.

extension RunOptions.StoreKind: ExpressibleByArgument {}
/// The data sets of the scenarios the command runs.
extension DataSetKind: ExpressibleByArgument {
    public init?(argument: String) {
        guard let found = PerfRunCommand.catalog.dataSets.first(where: { $0.name == argument }) else { return nil }
        self = found
    }

    public static var allValueStrings: [String] { PerfRunCommand.catalog.dataSets.map(\.name) }
}

/// What `perf-run compare` prints.
enum ComparisonOutput: String, CaseIterable, ExpressibleByArgument {
    case text, markdown, json, html
}

/// `--scale`, shared by the commands that build a data set.
struct ScaleOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Data set scale, 0.01 to 4: entity counts are max(1, round(base × scale)).")
    var scale = 1.0

    func validate() throws {
        guard scale >= 0.01, scale <= 4 else { throw ValidationError("--scale must be between 0.01 and 4, not \(scale)") }
    }
}
