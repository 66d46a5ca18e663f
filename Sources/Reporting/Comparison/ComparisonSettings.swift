import Foundation
import ToolSupport

/// How much a counter may grow before a comparison calls it a regression:
/// an absolute number of events, a fraction of the base value, or either.
public struct CounterAllowance: Codable, Equatable, Sendable {
    public var absolute: Int?
    public var relative: Double?

    public init(absolute: Int? = nil, relative: Double? = nil) {
        self.absolute = absolute
        self.relative = relative
    }

    func allows(base: Int, head: Int) -> Bool {
        let increase = head - base
        if let absolute, increase <= absolute { return true }
        if let relative, Double(increase) <= relative * Double(max(base, 1)) { return true }
        return false
    }
}

/// Counter allowances, per counter for every scenario and per scenario,
/// and the slopes' allowance (``SlopeAllowance``):
///
/// ```json
/// { "counters": { "sqlStatements": { "relative": 0.1 } },
///   "scenarios": { "Prefetch": { "rowsRead": { "absolute": 100 } } },
///   "slopes": { "relative": 0.1, "absolute": 1 } }
/// ```
public struct Thresholds: Codable, Equatable, Sendable {
    public var counters: [String: CounterAllowance]
    public var scenarios: [String: [String: CounterAllowance]]
    /// How much a fit's slope may grow (`"slopes": {"relative": 0.1,
    /// "absolute": 1}`); nil takes ``SlopeAllowance/init(relative:absolute:)``'s defaults.
    public var slopes: SlopeAllowance?

    public init(counters: [String: CounterAllowance] = [:], scenarios: [String: [String: CounterAllowance]] = [:]) {
        self.counters = counters
        self.scenarios = scenarios
    }

    func allowance(_ counter: String, in scenario: String) -> CounterAllowance? {
        scenarios[scenario]?[counter] ?? counters[counter]
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        counters = try container.decodeIfPresent([String: CounterAllowance].self, forKey: .counters) ?? [:]
        scenarios = try container.decodeIfPresent([String: [String: CounterAllowance]].self, forKey: .scenarios) ?? [:]
        slopes = try container.decodeIfPresent(SlopeAllowance.self, forKey: .slopes)
    }

    /// Reads a thresholds file from any readable file (``InputFile``: a
    /// pipe too); the error names the file, and the key path of a key or
    /// value that is wrong (a misspelled counter is not left out silently).
    public static func read(_ path: String) throws(ReportError) -> Thresholds {
        let data = try InputFile.read(path, what: "thresholds file")
        if let problem = JSONTextScan.problem(in: data) { throw ReportError("\(path): \(problem)") }
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw ReportError("\(path): not JSON") }
        if let problem = ComparisonSettingsCheck.thresholdsProblem(object) { throw ReportError("\(path): \(problem)") }
        do {
            return try JSONDecoder().decode(Thresholds.self, from: data)
        } catch {
            throw ReportError("\(path): not a thresholds file (counters, scenarios)")
        }
    }
}

/// The smallest timing change a comparison calls a change: relative (a
/// fraction of the base median) and absolute (seconds), per scenario or for
/// all. The defaults, 25% and 100 µs, hold two runs of one binary apart on
/// a shared 2-core machine (``NoiseModel``); a machine's own can be
/// measured with an A/A pair (the same code twice), whose comparison's
/// JSON is then the floor.
public struct NoiseFloor: Codable, Equatable, Sendable {
    public var relative: Double
    public var absolute: Double
    public var scenarios: [String: Double]

    public init(relative: Double = 0.25, absolute: Double = 0.000_1, scenarios: [String: Double] = [:]) {
        self.relative = relative
        self.absolute = absolute
        self.scenarios = scenarios
    }

    func relative(for scenario: String) -> Double { max(relative, scenarios[scenario] ?? 0) }

    /// Reads a floor file (any readable file, ``InputFile``: a pipe too): a
    /// `NoiseFloor` JSON, or the JSON of an A/A comparison, whose
    /// confidence intervals give each scenario's floor.
    public static func read(_ path: String) throws -> NoiseFloor {
        let data = try InputFile.read(path, what: "noise floor file")
        if let problem = JSONTextScan.problem(in: data) { throw ReportError("\(path): \(problem)") }
        if let comparison = try? JSONDecoder().decode(ReportComparison.self, from: data) {
            var floor = NoiseFloor()
            for scenario in comparison.scenarios {
                guard let timing = scenario.timing, let low = timing.ratioLow, let high = timing.ratioHigh else { continue }
                floor.scenarios[scenario.name] = max(high - 1, 1 - low)
            }
            return floor
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw ReportError("\(path): not JSON") }
        if let problem = ComparisonSettingsCheck.noiseFloorProblem(object) { throw ReportError("\(path): \(problem)") }
        do {
            return try JSONDecoder().decode(NoiseFloor.self, from: data)
        } catch {
            throw ReportError("\(path): not a noise floor (relative, absolute, scenarios) nor an A/A comparison")
        }
    }
}
