import Foundation
import TestSupport
import Testing

/// What the command line does for a person at a terminal: a mistyped
/// scenario or command gets the nearest names, every option's help says its
/// default, a refused command leaves nothing behind, and a run's text opens
/// with what to fix first and ends with its total time.
@Suite struct CommandLineHelpTests {
    static func perfRun(_ arguments: [String], in directory: URL? = nil) throws -> CommandResult {
        try PerfRunProcess.run(arguments, in: directory)
    }

    @Test(arguments: [
        (["run", "SingleFalt"], "unknown scenario SingleFalt; did you mean SingleFault? (perf-run list shows them)\n"),
        (["run", "prefetch", "Prefech"], "unknown scenario Prefech; did you mean Prefetch? (perf-run list shows them)\n"),
        (["run", "NoSuchScenario"], "unknown scenario NoSuchScenario (perf-run list shows them)\n"),
        (["rn"], "unknown command perf-run rn; did you mean run? (perf-run --help lists them)\n"),
        (["compair", "a.json", "b.json"], "unknown command perf-run compair; did you mean compare? (perf-run --help lists them)\n"),
        (["model", "imprt", "x"], "unknown command perf-run model imprt; did you mean import? (perf-run model --help lists them)\n"),
        (["frobnicate"], "unknown command perf-run frobnicate (perf-run --help lists them)\n"),
    ])
    func aMistypedNameGetsTheNearestOnes(arguments: [String], message: String) throws {
        let result = try Self.perfRun(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }

    /// Each option with a default says it in its help.
    @Test(arguments: [
        (["run"], ["--seed <seed>", "--iterations <iterations>", "--warmup <warmup>", "--store <store>", "--scale <scale>"]),
        (["log"], ["--limit <limit>"]),
        (["model", "import"], ["--model-version <name>"]),
    ])
    func everyOptionSaysItsDefault(command: [String], options: [String]) throws {
        let help = try Self.perfRun(command + ["--help"])
        #expect(help.status == 0)
        // An option's help runs from its line to the next option's.
        let text = help.stdout
        for option in options {
            let start = try #require(text.range(of: "  \(option)"), "\(option) in \(command)")
            let rest = text[start.upperBound...]
            let end = rest.range(of: "\n  -")?.lowerBound ?? rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex
            let entry = rest[..<end]
            #expect(entry.contains("default"), "\(command) \(option): \(entry)")
        }
    }

    /// A command refused for its input creates no directory for its
    /// outputs (`Reports/` once stayed behind, empty).
    @Test(arguments: [
        ["run", "FetchAll", "--scale", "0.02", "--accepted-insights", "/nope"],
        ["run", "FetchAll", "--scale", "0.02", "--accepted-insights", "/nope", "--json", "out/deeper/report.json"],
        ["log", "/nope", "--html", "pages/log.html"],
    ])
    func aRefusedCommandLeavesNothingBehind(arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refused-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.perfRun(arguments, in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// The text opens with what to fix first, the progress counts the
    /// iterations done with the time, and the last line is the run's time.
    @Test func aRunsTextOpensWithWhatToFixFirstAndEndsWithItsTime() throws {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("fix-first-\(UUID()).json").path
        defer {
            try? FileManager.default.removeItem(atPath: json)
            try? FileManager.default.removeItem(atPath: json.replacingOccurrences(of: ".json", with: ".html"))
        }
        let result = try Self.perfRun(["run", "ToOneList", "--scale", "0.02", "--iterations", "3", "--warmup", "1", "--json", json])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("what to fix first\n1. ToOneList: "), "\(result.stdout)")
        #expect(result.stdout.contains("\n\nscenario "))
        let last = try #require(result.stdout.split(separator: "\n").last)
        #expect(last.hasPrefix("ran 1 scenario in ") && last.hasSuffix(" s"), "\(last)")
        // Standard error is no terminal here: a line per iteration, the done ones counted.
        #expect(result.stderr.contains("ToOneList: warm-up 1 of 1, 0 done · "), "\(result.stderr)")
        #expect(result.stderr.contains("ToOneList: iteration 1 of 3, 0 done · "))
        #expect(result.stderr.contains("ToOneList: iteration 3 of 3, 2 done · "))
        #expect(result.stderr.contains(" left\n"))
        #expect(result.stderr.contains("ToOneList: passed in "))
    }
}
