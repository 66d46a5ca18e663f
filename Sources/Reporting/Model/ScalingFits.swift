import Foundation
import Insights
import Probes

/// How a scenario's work grows with its data (`perf-run run --scales
/// 0.5,1`): each cost counter, and each statement shape's executions and
/// rows, fitted against the data set's scale with a least-squares line
/// (``LeastSquaresLine``): `sqlStatements at List.swift:41 = 1 + 50·N`.
///
/// N is the data set's scale. Every entity count of a data set is
/// `max(1, round(base × scale))`, so N = 1 is the whole data set at scale
/// 1 whatever entity a call site walks, and a slope reads "per data set at
/// scale 1": 0 is constant (a fetch of 20 rows, a count), 500 on the
/// selfies data set is one per person. A count of one entity instead would
/// have to name one of several (selfies has people, selfies and networks,
/// and join tables that grow with their product), which the runner cannot
/// know for a call site; the scale is the one size every data set shares,
/// an application's too, and two runs at different scales have
/// comparable slopes.
///
/// The counters are exact, so the fit is arithmetic, not statistics: two
/// scales give the line through them; three or more give the line that
/// leaves the least, and residuals other than 0 say the counts are not a
/// line (a join table that grows as N², or rounding of small counts).
public struct ScalingFits: Codable, Equatable, Sendable {
    /// The scales the scenario ran at, in the order given.
    public var scales: [Double]
    public var fits: [ScalingFit]

    public init(scales: [Double], fits: [ScalingFit]) {
        self.scales = scales
        self.fits = fits
    }

    /// What the formats show: the counters' fits, and the statements'
    /// that are not constant, as it is; and each fix's that differ from
    /// the run as it is (a line of its own, or one the run has not).
    public var shown: [ScalingFit] {
        let asItIs = Dictionary(fits.filter { $0.fix == nil }.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        return fits.filter { fit in
            guard fit.shape == nil || fit.growth != .constant else { return false }
            guard fit.fix != nil else { return true }
            var plain = fit
            plain.fix = nil
            let same = asItIs[plain.key]
            return !(same?.slope == fit.slope && same?.intercept == fit.intercept)
        }
    }

    /// What a slope means, for the formats.
    public static let note = "a slope is per data set at scale 1; 0 is constant"

    /// The counters fitted for a whole iteration: the cost counters
    /// (``Probes/CounterName/Direction/cost``).
    public static let counters: [CounterName] = [
        .sqlStatements, .rowsRead, .rowsWritten, .faultsFired, .relationshipFaultsFired, .cacheMisses, .fullScanSteps, .vmSteps,
    ]

    /// The fits of a scenario's runs, one per scale (in the order of
    /// `scales`): `runs` as it is, and for each fix measured the run
    /// with the fix (a fix whose run failed at some scale has no fit).
    /// Each cost counter of the iteration, and per statement shape its
    /// executions (`sqlStatements`) and rows returned (`rowsRead`), named
    /// by the shape's first call site (faults are not counted per
    /// statement: only the iteration's are fitted).
    public init(scales: [Double], runs: [ScenarioReport], fixes: [(fix: InsightFix, runs: [ScenarioReport])] = []) {
        self.scales = scales
        fits = Self.fits(scales: scales, runs: runs, fix: nil)
        for (fix, fixed) in fixes where fixed.count == scales.count && fixed.allSatisfy({ $0.status == .passed }) {
            fits += Self.fits(scales: scales, runs: fixed, fix: fix)
        }
    }

    private static func fits(scales: [Double], runs: [ScenarioReport], fix: InsightFix?) -> [ScalingFit] {
        let advisory = Set(runs.flatMap(\.advisoryCounters))
        var fits: [ScalingFit] = []
        for counter in counters {
            let counts = runs.map { $0.counters[counter.rawValue] ?? 0 }
            guard counts.contains(where: { $0 != 0 }),
                  let fit = ScalingFit(counter: counter.rawValue, scales: scales, counts: counts, fix: fix,
                                       advisory: advisory.contains(counter.rawValue))
            else { continue }
            fits.append(fit)
        }
        // Every shape any scale ran, in the order of the last scale's
        // statements (most time first), then the others'.
        var shapes: [String] = []
        var sites: [String: String] = [:]
        for run in runs.reversed() {
            for statement in run.statements {
                if sites[statement.shape] == nil {
                    shapes.append(statement.shape)
                    sites[statement.shape] = statement.firstCallSite
                }
            }
        }
        for shape in shapes {
            let statements = runs.map { run in run.statements.filter { $0.shape == shape } }
            let executions = statements.map { $0.reduce(0) { $0.addingSaturated($1.count) } }
            let rows = statements.map { $0.reduce(0) { $0.addingSaturated($1.rowsReturned) } }
            for (counter, counts) in [(CounterName.sqlStatements, executions), (.rowsRead, rows)] where counts.contains(where: { $0 != 0 }) {
                guard let fit = ScalingFit(
                    counter: counter.rawValue, scales: scales, counts: counts, shape: shape, callSite: sites[shape], fix: fix,
                    advisory: advisory.contains(counter.rawValue))
                else { continue }
                fits.append(fit)
            }
        }
        return fits
    }
}

/// How a count grows with the data set's scale, as its fit says.
public enum ScalingGrowth: String, Codable, Sendable {
    /// The same at every scale (a slope of 0).
    case constant
    /// On a line with a slope other than 0 (with two scales, the line
    /// through them: two points cannot tell a line from a curve).
    case linear
    /// Three or more scales whose counts the line leaves residuals for:
    /// growth of another form (a join table's N², a count rounded).
    case notLinear = "not linear"
}

/// One count fitted against the data set's scale (``ScalingFits``).
public struct ScalingFit: Codable, Equatable, Sendable {
    /// The counter: of the whole iteration, or, with ``shape``, of one
    /// statement shape (`sqlStatements`: its executions; `rowsRead`: its
    /// rows returned).
    public var counter: String
    /// The statement shape, for a shape's fit.
    public var shape: String?
    /// Where the shape first ran (as the report's statements say).
    public var callSite: String?
    /// The fix applied (`--what-if`); nil for the run as it is.
    public var fix: InsightFix?
    /// The count at each scale (of ``ScalingFits/scales``, in order).
    public var counts: [Int]
    public var intercept: Double
    /// The count's growth per unit of scale (N = 1: the data set at scale 1).
    public var slope: Double
    /// `count − (intercept + slope·N)` at each scale, with three scales or
    /// more; nil with two (the line goes through both).
    public var residuals: [Double]?
    public var growth: ScalingGrowth
    /// The counter is advisory in this scenario (it depends on timing):
    /// shown, never compared. Nil when it is not.
    public var advisory: Bool?

    /// The fit of `counts` at `scales`; nil when the scales cannot give a
    /// line (fewer than two, or all the same).
    public init?(
        counter: String, scales: [Double], counts: [Int], shape: String? = nil, callSite: String? = nil, fix: InsightFix? = nil,
        advisory: Bool = false
    ) {
        guard scales.count == counts.count, let line = LeastSquaresLine(zip(scales, counts).map { (x: $0, y: Double($1)) }) else { return nil }
        self.counter = counter
        self.shape = shape
        self.callSite = callSite
        self.fix = fix
        self.counts = counts
        intercept = line.intercept
        slope = line.slope
        residuals = scales.count > 2 ? line.residuals : nil
        growth = !line.isExact ? .notLinear : line.slope == 0 ? .constant : .linear
        self.advisory = advisory ? true : nil
    }

    /// What the fit is of, for comparing two reports' fits: the counter,
    /// the shape and the fix.
    public var key: String {
        [fix.map { "with \($0.summary)" }, shape.map { "shape \($0)" }, counter].compactMap { $0 }.joined(separator: " / ")
    }

    /// The line in words: `4 + 1.5·N`, `12` (constant), `2 − 0.5·N`.
    public var equation: String {
        if slope == 0 { return Self.number(intercept) }
        let term = "\(Self.number(abs(slope)))·N"
        if intercept == 0 { return slope < 0 ? "−" + term : term }
        return "\(Self.number(intercept)) \(slope < 0 ? "−" : "+") \(term)"
    }

    /// What is fitted, in words: `sqlStatements`, `sqlStatements at
    /// App/List.swift:41`, each with ` (with prefetch `x`)` for a fix's.
    public var subject: String {
        var text = counter
        if shape != nil { text += " at \(callSite.map { $0.isEmpty ? "an unknown site" : $0 } ?? "an unknown site")" }
        if let fix { text += " (with \(fix.summary))" }
        return text
    }

    /// `sqlStatements at App/List.swift:41 = 50·N for SELECT t0.name
    /// FROM ZGROUP t0 WHERE …`: the shape's first 60 characters tell two
    /// shapes of one site apart; with the residuals when there are some.
    public var description: String {
        var text = "\(subject) = \(equation)"
        if let shape { text += " for \(shape.count > 60 ? shape.prefix(60) + "…" : shape)" }
        if growth == .notLinear, let residuals {
            text += " (not a line: residuals \(residuals.map(Self.number).joined(separator: ", ")))"
        }
        return text
    }

    /// A figure of a fit: whole numbers as such, others with four
    /// significant digits.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.4g", value)
    }
}
