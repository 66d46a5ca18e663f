import Foundation
import Insights
import ToolSupport

/// What a run measures, in one value: perf-run fills it from its command
/// line, a library caller builds it, the runner reads it and the report
/// stores it as it is (`Report.configuration`). ``validate()`` holds the
/// range checks both kinds of caller get, with the same errors; decoding a
/// report does not validate (a report records what ran).
public struct RunConfiguration: Codable, Equatable, Sendable {
    /// Where the data lives while a scenario runs.
    public enum StoreKind: String, Codable, Sendable, CaseIterable {
        /// A copy of the cached data set on disk (what an app does).
        case file
        /// An in-memory database built for each scenario.
        case memory
    }

    /// The data set's scale: entity counts are max(1, round(base × scale)).
    public var scale: Double
    /// The data generator's seed.
    public var seed: UInt64
    /// Measured iterations of each scenario.
    public var iterations: Int
    /// Warm-up iterations before the measured ones.
    public var warmup: Int
    public var store: StoreKind
    /// A scenario running longer than this (all its iterations) is stopped
    /// and marked failed; nil means no limit.
    public var timeoutSeconds: Double?
    /// Insight rule thresholds the run sets, by rule name; nil when every
    /// rule runs with its default.
    public var insightThresholds: [String: Int]?
    /// Whether each prefetch and index advice is measured (`--what-if`);
    /// nil is no.
    public var whatIf: Bool?
    /// With `--scales`: every scale each scenario runs at, in the order
    /// given (at least two, distinct, each from 0.01 to 4),
    /// to fit its counts against the scale (``ScalingFits``); ``scale`` is
    /// one of them, the one whose figures the report holds (perf-run's:
    /// the last). Nil for a run at one scale.
    public var scales: [Double]?

    /// The scales a run takes.
    public static let scales: ClosedRange<Double> = 0.01...4
    /// The most measured or warm-up iterations a run takes: far more than
    /// any statistic needs, and no arithmetic near it overflows.
    public static let maximumIterations = 100_000

    /// A configuration; every value has perf-run's default.
    public init(
        scale: Double = 1, seed: UInt64 = 1, iterations: Int = 10, warmup: Int = 1, store: StoreKind = .file,
        timeoutSeconds: Double? = nil, insightThresholds: [String: Int]? = nil, whatIf: Bool? = nil
    ) {
        self.scale = scale
        self.seed = seed
        self.iterations = iterations
        self.warmup = warmup
        self.store = store
        self.timeoutSeconds = timeoutSeconds
        self.insightThresholds = insightThresholds
        self.whatIf = whatIf
    }

    /// A value out of range, named by its key and by the option that sets it.
    public struct Problem: CommandFailure, Equatable, Sendable {
        /// The configuration's key (`iterations`).
        public let key: String
        /// The perf-run option that sets it (`--iterations`).
        public let option: String
        /// What is wrong, with the option's name: `--iterations must be 1 to 100000, not 0`.
        public let description: String
        public var exitStatus: ExitStatus { .badInput }
    }

    /// Checks every value's range; the first one out of range is the error.
    public func validate() throws(Problem) {
        // The scales first: the scale is one of them.
        if let scales { try Self.validate(scales: scales, reported: scale) }
        guard Self.scales.contains(scale) else {
            throw Problem(key: "scale", option: "--scale", description: "--scale must be between 0.01 and 4, not \(scale)")
        }
        guard (1...Self.maximumIterations).contains(iterations) else {
            throw Problem(
                key: "iterations", option: "--iterations", description: "--iterations must be 1 to \(Self.maximumIterations), not \(iterations)")
        }
        guard (0...Self.maximumIterations).contains(warmup) else {
            throw Problem(key: "warmup", option: "--warmup", description: "--warmup must be 0 to \(Self.maximumIterations), not \(warmup)")
        }
        if let timeoutSeconds, !(timeoutSeconds > 0 && timeoutSeconds.isFinite) {
            throw Problem(
                key: "timeoutSeconds", option: "--timeout", description: "--timeout must be a positive number of seconds, not \(timeoutSeconds)")
        }
        for (rule, value) in (insightThresholds ?? [:]).sorted(by: { $0.key < $1.key }) {
            do {
                _ = try InsightSettings.threshold("\(rule)=\(value)")
            } catch {
                throw Problem(key: "insightThresholds.\(rule)", option: "--insight-threshold", description: error.description)
            }
        }
    }

    /// `--scales`' values: at least two, each in range, none twice, and
    /// `reported` one of them.
    static func validate(scales: [Double], reported: Double) throws(Problem) {
        func problem(_ text: String) -> Problem { Problem(key: "scales", option: "--scales", description: "--scales \(text)") }
        let list = scales.map { ScalingFit.number($0) }.joined(separator: ",")
        guard scales.count >= 2 else { throw problem("needs at least two scales to fit a line, not \(list.isEmpty ? "none" : list)") }
        if let wrong = scales.first(where: { !Self.scales.contains($0) }) {
            throw problem("takes scales between 0.01 and 4, not \(wrong)")
        }
        if let twice = scales.enumerated().first(where: { scales[..<$0.offset].contains($0.element) })?.element {
            throw problem("names the scale \(ScalingFit.number(twice)) twice")
        }
        guard scales.contains(reported) else { throw problem("does not hold the scale \(ScalingFit.number(reported)) the report is of") }
    }

    /// The scales each scenario runs at: ``scales``, or ``scale`` alone.
    public var scalesRun: [Double] { scales ?? [scale] }

    /// Reads `--scales`' value, `0.5,1`: scales separated by commas. The
    /// error names the option and the part that is not a number.
    public static func scales(parsing text: String) throws(Problem) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var scales: [Double] = []
        for part in parts {
            guard let value = Double(part), value.isFinite else {
                throw Problem(
                    key: "scales", option: "--scales",
                    description: "--scales takes scales separated by commas, such as 0.5,1: \(part.isEmpty ? "an empty one" : "'\(part)'") is not a number (in '\(text)')")
            }
            scales.append(value)
        }
        return scales
    }

    /// Whether each prefetch and index advice is measured.
    public var measuresFixes: Bool {
        get { whatIf == true }
        set { whatIf = newValue ? true : nil }
    }

    /// The thresholds by rule, as the insight engine takes them.
    public var thresholds: [InsightRuleID: Int] {
        get { Dictionary(uniqueKeysWithValues: (insightThresholds ?? [:]).map { (InsightRuleID($0.key), $0.value) }) }
        set { insightThresholds = newValue.isEmpty ? nil : Dictionary(uniqueKeysWithValues: newValue.map { ($0.key.rawValue, $0.value) }) }
    }
}

extension RunConfiguration {
    /// The form before the store was typed.
    @available(*, deprecated, message: "store is a RunConfiguration.StoreKind: pass .file or .memory")
    public init(
        scale: Double, seed: UInt64, iterations: Int, warmup: Int, store: String, timeoutSeconds: Double?,
        insightThresholds: [String: Int]? = nil, whatIf: Bool? = nil
    ) {
        self.init(
            scale: scale, seed: seed, iterations: iterations, warmup: warmup, store: StoreKind(rawValue: store) ?? .file,
            timeoutSeconds: timeoutSeconds, insightThresholds: insightThresholds, whatIf: whatIf)
    }
}
