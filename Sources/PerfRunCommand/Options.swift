import ArgumentParser
import Insights
import Reporting
import Scenarios
import ToolSupport

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

/// `--scale`, shared by the commands that build a data set.
/// How the insight rules run: `--insight-threshold rule=value` (repeated)
/// and an insights file (`--accepted-insights`), for `run` and `log`.
struct InsightOptions: ParsableArguments {
    @Option(
        name: .customLong("insight-threshold"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Set an insight rule's threshold, as rule=value (repeat for several rules).",
            discussion: "The rules and their defaults: \(InsightEngine.rules.map { "\($0.id)=\($0.threshold.defaultValue)" }.joined(separator: ", ")); docs/insights.md says what each counts."))
    var thresholds: [String] = []

    @Option(
        name: .customLong("accepted-insights"),
        help: "An insights file: known insights (rule/entity/keyPath per line, @File.swift:line for one site), or the JSON form with accepted, thresholds and intended (docs/insights.md).")
    var acceptedInsights: String?

    func validate() throws {
        for text in thresholds {
            do {
                _ = try InsightSettings.threshold(text)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The settings the options give; an unreadable or wrong file is bad input.
    func settings() throws -> InsightSettings {
        var settings = InsightSettings()
        do {
            if let acceptedInsights { settings = try InsightSettings(contentsOf: acceptedInsights) }
            for text in thresholds {
                let (rule, value) = try InsightSettings.threshold(text)
                settings.thresholds[rule] = value
            }
        } catch {
            throw UsageError(error.description)
        }
        return settings
    }
}

struct ScaleOption: ParsableArguments {
    @Option(
        name: .customLong("scale"), parsing: .unconditional,
        help: "Data set scale, 0.01 to 4 (default 1): entity counts are max(1, round(base × scale)).")
    var given: Double?

    /// The scale given, else 1.
    var scale: Double { given ?? 1 }

    func validate() throws {
        do {
            try RunConfiguration(scale: scale).validate()
        } catch {
            throw ValidationError(error.description)
        }
    }
}
