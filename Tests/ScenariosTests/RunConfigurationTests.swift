import Foundation
import Reporting
import Scenarios
import TestSupport
import Testing
import ToolSupport

/// One run configuration: the CLI fills it, a library caller builds it
/// with the same range checks and errors, the runner reads it and the
/// report stores it as it is.
@Suite struct RunConfigurationTests {
    @Test(arguments: [
        (RunConfiguration(scale: 9), "scale", "--scale must be between 0.01 and 4, not 9.0"),
        (RunConfiguration(iterations: 0), "iterations", "--iterations must be 1 to 100000, not 0"),
        (RunConfiguration(warmup: -1), "warmup", "--warmup must be 0 to 100000, not -1"),
        (RunConfiguration(timeoutSeconds: .infinity), "timeoutSeconds", "--timeout must be a positive number of seconds, not inf"),
        (RunConfiguration(insightThresholds: ["n-plus-one": 0]), "insightThresholds.n-plus-one",
         "--insight-threshold n-plus-one=0: the value must be a whole number of 1 or more"),
    ])
    func aValueOutOfRangeIsOneErrorNamingIt(configuration: RunConfiguration, key: String, message: String) {
        do {
            try configuration.validate()
            Issue.record("\(configuration) was accepted")
        } catch {
            #expect(error.key == key)
            #expect(error.option == String(message.prefix { $0 != " " }))
            #expect(error.description == message)
            #expect(error.exitStatus == .badInput)
        }
    }

    /// A library caller gets the error before any work, and perf-run the
    /// same line with exit 2.
    @Test func theLibraryAndTheCommandLineRefuseAlike() throws {
        var settings = RunSession.Settings()
        settings.options = RunOptions(RunConfiguration(scale: 0.02, iterations: 0))
        #expect(throws: RunConfiguration.Problem.self) { try RunSession(settings).measure([.fetchAll]) }
        let cli = try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--iterations", "0"])
        #expect(cli.status == 2)
        #expect(cli.stderr == "--iterations must be 1 to 100000, not 0\n")
    }

    /// The report holds the configuration the runner ran, equal to the one
    /// given, through its JSON too.
    @Test func theReportStoresTheConfigurationAsItIs() throws {
        var configuration = RunConfiguration(scale: 0.02, seed: 7, iterations: 2, warmup: 0, store: .memory, timeoutSeconds: 60)
        configuration.thresholds = [.nPlusOne: 4]
        configuration.measuresFixes = false
        var settings = RunSession.Settings()
        settings.options = RunOptions(configuration)
        let outcome = try RunSession(settings).measure([.fetchAll])
        #expect(outcome.report.configuration == configuration)
        let decoded = try JSONDecoder().decode(Report.self, from: try ReportFile.json(outcome.report))
        #expect(decoded.configuration == configuration)
        #expect(outcome.report.scenarios.first?.samples.count == 2)
    }

    /// Thresholds a library caller sets in the insight settings join the
    /// configuration's (the configuration's win), and the report records them.
    @Test func thresholdsOfTheInsightSettingsAreRecorded() throws {
        var options = RunOptions(RunConfiguration(scale: 0.02, iterations: 1, warmup: 0, insightThresholds: ["repeated-statement": 9]))
        options.insights.thresholds = [.nPlusOne: 5, .repeatedStatement: 2]
        #expect(options.recordedConfiguration.insightThresholds == ["n-plus-one": 5, "repeated-statement": 9])
        var settings = RunSession.Settings()
        settings.options = options
        let outcome = try RunSession(settings).measure([.fetchAll])
        #expect(outcome.report.configuration.insightThresholds == ["n-plus-one": 5, "repeated-statement": 9])
    }
}
