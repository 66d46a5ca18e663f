import Foundation
import Reporting

/// Seeded random numbers (SplitMix64): the same numbers on every machine
/// and every run, so that a test of noisy histories is deterministic.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal number (Box-Muller).
    mutating func normal() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// Histories of runs made up for tests: commits of one scenario on one
/// runner, each a run with time samples drawn around a level with the
/// noise of a shared CI runner, and counters given per commit.
enum SyntheticHistory {
    static let start = Date(timeIntervalSince1970: 1_740_000_000)

    /// A 40-hex commit name for commit `index`.
    static func commit(_ index: Int, salt: String = "") -> String {
        let hex = String(format: "%08x", index &* 2_654_435_761 & 0xFFFF_FFFF)
        return String((hex + salt.unicodeScalars.map { String(format: "%02x", $0.value % 256) }.joined() + String(repeating: "0", count: 40)).prefix(40))
    }

    /// Samples of one commit: `level` seconds times a commit-wide factor
    /// (the runner's state that day: 3% spread) times each sample's own
    /// noise (5% spread), and a slow sample (×1.5 to ×3: a neighbour, a
    /// page-cache miss) with a chance of 1 in 50.
    static func samples(level: Double, count: Int, random: inout SeededRandom) -> [Double] {
        let commitFactor = exp(0.03 * random.normal())
        return (0..<count).map { _ in
            var value = level * commitFactor * exp(0.05 * random.normal())
            if Double.random(in: 0..<1, using: &random) < 0.02 { value *= Double.random(in: 1.5...3, using: &random) }
            return value
        }
    }

    /// The A/A history of `commits` commits at 2 ms with realistic
    /// outliers: a single sample 4× slower at commit 3, and every sample
    /// of commit `oddCommit` 30% slower once. `levels` overrides a commit's
    /// level (a slowdown from commit k on: 4 ms from k).
    static func times(commits: Int = 20, samples count: Int = 10, seed: UInt64, oddCommit: Int? = 12, levels: (Int) -> Double = { _ in 0.002 })
        -> [[Double]]
    {
        var random = SeededRandom(seed: seed)
        return (0..<commits).map { index in
            var values = samples(level: levels(index), count: count, random: &random)
            if index == 3 { values[values.count / 2] *= 4 }
            if index == oddCommit { values = values.map { $0 * 1.3 } }
            return values
        }
    }

    /// A report of one scenario whose iterations took `times` (CPU and
    /// wall alike, unless `wall` gives the wall times), with a machine speed
    /// probe (`probe` seconds of CPU and wall before each iteration) when
    /// given.
    static func report(scenario: String = "FetchAll", times: [Double], wall: [Double]? = nil, probe: [Double]? = nil, counters: [String: Int] = [:],
                       advisory: [String] = [], scale: Double = 0.02, status: ScenarioReport.Status = .passed) -> Report {
        let wall = wall ?? times
        var scenarioReport = ScenarioReport(
            name: scenario, description: "what \(scenario) shows", dataSet: "selfies", status: status,
            samples: zip(times, wall).map { Sample(wallSeconds: $1, cpuSeconds: $0, peakResidentBytes: nil) }, counters: counters, advisoryCounters: advisory)
        scenarioReport.summary = Summary(wallSeconds: Statistics(wall), cpuSeconds: Statistics(times))
        scenarioReport.machineProbe = probe.map { MachineProbe(cpuSeconds: $0, wallSeconds: $0) }
        return Report(
            tool: .init(name: "perf-run", version: "0.2.0", commandLine: ["perf-run", "run"]),
            environment: .init(operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "host"),
            configuration: .init(scale: scale, seed: 1, iterations: times.count, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [scenarioReport])
    }

    /// One run per commit (an hour apart), oldest first; `probes` gives a
    /// commit's machine speed probe samples (none: a report older than the
    /// probe).
    static func runs(
        _ times: [[Double]], counters: (Int) -> [String: Int] = { _ in ["sqlStatements": 3] }, probes: (Int) -> [Double]? = { _ in nil },
        runner: String = "ci-small", scenario: String = "FetchAll", scale: Double = 0.02
    ) -> [HistoryRun] {
        times.enumerated().map { index, times in
            HistoryRun(
                identity: RunIdentity(rawValue: "\(runner)-\(scenario)-\(scale)-\(index)"), project: "acme/app", branch: "main", runner: runner,
                commit: commit(index), time: start.addingTimeInterval(Double(index) * 3_600),
                report: report(scenario: scenario, times: times, probe: probes(index), counters: counters(index), scale: scale))
        }
    }
}
