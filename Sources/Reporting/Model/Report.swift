import Foundation
import Insights

/// A run's report: what ran, where, how, and what each scenario did.
/// Encoded as JSON by ``ReportFile``; docs/report-schema.md describes it.
public struct Report: Codable, Equatable, Sendable {
    /// Bumped when a field changes meaning or goes away.
    /// 2: `values` are medians over the measured iterations (the last
    /// iteration's before), with `valueStatistics`, `phases` and
    /// `experiments` added.
    /// 3: insights come from one rule engine: `n-plus-one` found by pattern
    /// (it replaces `fault-storm`), `sort-without-index`, thresholds as data;
    /// an insight has `count`, `fix`, `costSeconds`, `intended` and
    /// `whatIf`; the configuration has `insightThresholds` and `whatIf`.
    /// 4: the fixes of a scenario (`--what-if`) are measured against one
    /// "as it is", the scenario's own figures, which a fix's `whatIf` no
    /// longer repeats (`before` left out); `--scales` adds each scenario's
    /// `scaling` fits and the configuration's `scales`.
    /// 5: each statement shape has its query plan (asked of SQLite once per
    /// shape after the measured iterations, not only with `--sql-debug 4`)
    /// and `durations`: p50, p90, p99 and max of its execution times, and
    /// each iteration's p90.
    public static let currentSchemaVersion = 5

    public var schemaVersion: Int
    public var tool: Tool
    public var environment: Environment
    public var configuration: Configuration
    public var scenarios: [ScenarioReport]
    /// The published experiments whose two sides both ran, each with the
    /// source's figures, the measured ratio and a verdict.
    public var experiments: [ExperimentReport]?
    /// Entries of the run's accepted list that matched no insight of the
    /// run (a misspelling, a site whose line moved, a finding fixed): said,
    /// never ignored in silence. Nil when every entry matched.
    public var unmatchedAcceptedInsights: [String]?
    /// What tells this run from every other and when it was made
    /// (``RunStamp``): `perf-run run` stamps every report; nil in reports
    /// written before it did, and in reports put together by other means.
    public var run: RunStamp?

    public init(
        tool: Tool, environment: Environment, configuration: Configuration, scenarios: [ScenarioReport],
        experiments: [ExperimentReport]? = nil
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.tool = tool
        self.environment = environment
        self.configuration = configuration
        self.scenarios = scenarios
        self.experiments = experiments
    }

    public struct Tool: Codable, Equatable, Sendable {
        public var name: String
        public var version: String
        /// The exact command line, so that a run can be repeated.
        public var commandLine: [String]
        public init(name: String, version: String, commandLine: [String]) {
            self.name = name
            self.version = version
            self.commandLine = commandLine
        }
    }

    public struct Environment: Codable, Equatable, Sendable {
        public var operatingSystem: String
        public var cpuModel: String
        public var cores: Int
        public var swiftVersion: String
        public var sqliteVersion: String
        public var buildConfiguration: String
        public var gitCommit: String?
        public var hostName: String
        /// The clock that timed the run's events (``ProbeClock/Source``'s
        /// description); nil in reports written before it was recorded.
        public var clock: String?
        public init(
            operatingSystem: String, cpuModel: String, cores: Int, swiftVersion: String, sqliteVersion: String,
            buildConfiguration: String, gitCommit: String?, hostName: String, clock: String? = nil
        ) {
            self.clock = clock
            self.operatingSystem = operatingSystem
            self.cpuModel = cpuModel
            self.cores = cores
            self.swiftVersion = swiftVersion
            self.sqliteVersion = sqliteVersion
            self.buildConfiguration = buildConfiguration
            self.gitCommit = gitCommit
            self.hostName = hostName
        }
    }

    /// What the run measured: the configuration it ran with, as it was.
    public typealias Configuration = RunConfiguration
}

/// What one scenario did.
public struct ScenarioReport: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable {
        case passed, failed, skipped
    }

    public var name: String
    public var description: String
    public var dataSet: String
    public var status: Status
    /// Why it failed or was skipped.
    public var error: String?
    public var samples: [Sample]
    public var summary: Summary?
    /// Exact counters of one measured iteration (docs/report-schema.md).
    public var counters: [String: Int]
    /// Counters that are not the same in every measured iteration, or that
    /// depend on timing or memory management: shown, never gating.
    public var advisoryCounters: [String]
    /// The scenario's own figures (`coldSeconds`, `manualPeople`, …): the
    /// median over the measured iterations.
    public var values: [String: Double]
    /// Each figure over the measured iterations (min, median, max, …).
    public var valueStatistics: [String: Statistics]?
    /// The phases the scenario measured (``PhaseReport``), in the order they ran.
    public var phases: [PhaseReport]?
    /// The SQL statement shapes that took the most time, in one iteration.
    public var statements: [StatementReport]
    public var insights: [Insight]
    /// Where the time went: the median of each part over the measured iterations.
    public var timeBreakdown: TimeBreakdown?
    /// With `--lttng`: the counters rebuilt from the LTTng trace for the
    /// last measured iteration (they must equal `counters`, the peak aside).
    public var traceCounters: [String: Int]?
    /// With `--trace-events`: events of the last measured iteration that did
    /// not fit in the recorder's buffer (the trace file and the timeline
    /// then start later than the iteration); absent when none were dropped.
    /// Counters, statements and insights never depend on the buffer.
    public var droppedEvents: Int?
    /// With `--scales`: each figure's line against the data set's scale
    /// (``ScalingFits``); nil for a run at one scale.
    public var scaling: ScalingFits?
    /// Lazy loads a fetch said it intends (``FetchRequest/intendedLazyLoads``)
    /// that no insight of the judged iteration matched, as `Entity.keyPath
    /// at File.swift:line`; nil when every intention matched.
    public var unmatchedIntentions: [String]?
    /// How fast the machine was before each measured iteration
    /// (``MachineProbe``); nil in reports written before it was measured.
    public var machineProbe: MachineProbe?

    public init(
        name: String, description: String, dataSet: String, status: Status, error: String? = nil, samples: [Sample] = [],
        summary: Summary? = nil, counters: [String: Int] = [:], advisoryCounters: [String] = [], values: [String: Double] = [:],
        statements: [StatementReport] = [], insights: [Insight] = [], timeBreakdown: TimeBreakdown? = nil
    ) {
        self.timeBreakdown = timeBreakdown
        self.name = name
        self.description = description
        self.dataSet = dataSet
        self.status = status
        self.error = error
        self.samples = samples
        self.summary = summary
        self.counters = counters
        self.advisoryCounters = advisoryCounters
        self.values = values
        self.statements = statements
        self.insights = insights
    }
}

extension ScenarioReport {
    /// The run as it is, as each fix measured (`--what-if`) was judged
    /// against: the scenario's own figures, written once (schema 4). A
    /// report of version 3 or before holds a copy in each fix's
    /// `whatIf.before`, read as it is.
    public var asItIs: WhatIfOutcome.Side { WhatIfOutcome.Side(report: self) }

    private enum CodingKeys: String, CodingKey {
        case name, description, dataSet, status, error, samples, summary, counters, advisoryCounters, values, valueStatistics, phases
        case statements, insights, timeBreakdown, traceCounters, droppedEvents, scaling, unmatchedIntentions, machineProbe
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decode(String.self, forKey: .description)
        dataSet = try container.decode(String.self, forKey: .dataSet)
        status = try container.decode(Status.self, forKey: .status)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        samples = try container.decode([Sample].self, forKey: .samples)
        summary = try container.decodeIfPresent(Summary.self, forKey: .summary)
        counters = try container.decode([String: Int].self, forKey: .counters)
        advisoryCounters = try container.decode([String].self, forKey: .advisoryCounters)
        values = try container.decode([String: Double].self, forKey: .values)
        valueStatistics = try container.decodeIfPresent([String: Statistics].self, forKey: .valueStatistics)
        phases = try container.decodeIfPresent([PhaseReport].self, forKey: .phases)
        statements = try container.decode([StatementReport].self, forKey: .statements)
        insights = try container.decode([Insight].self, forKey: .insights)
        timeBreakdown = try container.decodeIfPresent(TimeBreakdown.self, forKey: .timeBreakdown)
        traceCounters = try container.decodeIfPresent([String: Int].self, forKey: .traceCounters)
        droppedEvents = try container.decodeIfPresent(Int.self, forKey: .droppedEvents)
        scaling = try container.decodeIfPresent(ScalingFits.self, forKey: .scaling)
        unmatchedIntentions = try container.decodeIfPresent([String].self, forKey: .unmatchedIntentions)
        machineProbe = try container.decodeIfPresent(MachineProbe.self, forKey: .machineProbe)
        let asItIs = self.asItIs
        for index in insights.indices where insights[index].whatIf?.before.isUnwritten == true {
            insights[index].whatIf?.before = asItIs
        }
    }

    /// Writes each fix's "as it is" once: where it is the scenario's own
    /// figures, a fix's `whatIf` leaves it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(dataSet, forKey: .dataSet)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(samples, forKey: .samples)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encode(counters, forKey: .counters)
        try container.encode(advisoryCounters, forKey: .advisoryCounters)
        try container.encode(values, forKey: .values)
        try container.encodeIfPresent(valueStatistics, forKey: .valueStatistics)
        try container.encodeIfPresent(phases, forKey: .phases)
        try container.encode(statements, forKey: .statements)
        let asItIs = self.asItIs
        let written = insights.map { insight in
            var insight = insight
            if insight.whatIf?.before == asItIs { insight.whatIf?.before = .unwritten }
            return insight
        }
        try container.encode(written, forKey: .insights)
        try container.encodeIfPresent(timeBreakdown, forKey: .timeBreakdown)
        try container.encodeIfPresent(traceCounters, forKey: .traceCounters)
        try container.encodeIfPresent(droppedEvents, forKey: .droppedEvents)
        try container.encodeIfPresent(scaling, forKey: .scaling)
        try container.encodeIfPresent(unmatchedIntentions, forKey: .unmatchedIntentions)
        try container.encodeIfPresent(machineProbe, forKey: .machineProbe)
    }
}

/// One measured iteration.
public struct Sample: Codable, Equatable, Sendable {
    public var wallSeconds: Double
    public var cpuSeconds: Double
    /// Peak resident memory during the iteration (`VmHWM` after a reset
    /// through `/proc/self/clear_refs`); nil where that is not available.
    public var peakResidentBytes: Int?

    public init(wallSeconds: Double, cpuSeconds: Double, peakResidentBytes: Int?) {
        self.wallSeconds = wallSeconds
        self.cpuSeconds = cpuSeconds
        self.peakResidentBytes = peakResidentBytes
    }
}

/// Statistics of the samples.
public struct Summary: Codable, Equatable, Sendable {
    public var wallSeconds: Statistics
    public var cpuSeconds: Statistics
    public init(wallSeconds: Statistics, cpuSeconds: Statistics) {
        self.wallSeconds = wallSeconds
        self.cpuSeconds = cpuSeconds
    }
}

/// Min, median, mean, max and standard deviation of some figures. Finite
/// figures give finite statistics, however large (up to
/// `Double.greatestFiniteMagnitude`): sums that would overflow are taken
/// over the figures scaled down by the largest.
public struct Statistics: Codable, Equatable, Sendable {
    public var min: Double
    public var median: Double
    public var mean: Double
    public var max: Double
    public var standardDeviation: Double

    public init(_ values: [Double]) {
        let sorted = values.sorted()
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        median = Self.median(ofSorted: sorted)
        (mean, standardDeviation) = Self.meanAndStandardDeviation(sorted)
        if !mean.isFinite || !standardDeviation.isFinite, let scale = sorted.map(abs).max(), scale.isFinite, scale > 0 {
            let scaled = Self.meanAndStandardDeviation(sorted.map { $0 / scale })
            (mean, standardDeviation) = (scaled.mean * scale, scaled.standardDeviation * scale)
        }
    }

    /// The middle value (the mean of the two middle ones), 0 for none.
    public static func median(ofSorted sorted: [Double]) -> Double {
        if sorted.isEmpty { return 0 }
        if sorted.count % 2 == 1 { return sorted[sorted.count / 2] }
        let (low, high) = (sorted[sorted.count / 2 - 1], sorted[sorted.count / 2])
        let middle = (low + high) / 2
        return middle.isFinite ? middle : low / 2 + high / 2
    }

    private static func meanAndStandardDeviation(_ values: [Double]) -> (mean: Double, standardDeviation: Double) {
        guard !values.isEmpty else { return (0, 0) }
        let count = Double(values.count)
        let mean = values.reduce(0, +) / count
        guard values.count > 1 else { return (mean, 0) }
        return (mean, (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1)).squareRoot())
    }
}

/// A SQL statement shape and what its executions did.
public struct StatementReport: Codable, Equatable, Sendable {
    public var shape: String
    public var purpose: String
    public var count: Int
    public var totalSeconds: Double
    public var maxSeconds: Double
    public var rowsReturned: Int
    public var rowsChanged: Int
    public var fullScanSteps: Int
    public var firstCallSite: String
    /// SQLite's `EXPLAIN QUERY PLAN` rows of the shape's first statement,
    /// indented two spaces a level (``QueryPlan`` tells full scans and
    /// temporary B-trees); nil when SQLite gave none (BEGIN, an INSERT of
    /// values) or in a report of schema 4 or before without `--sql-debug 4`.
    public var queryPlan: [String]?
    /// Percentiles of the shape's execution times over the measured
    /// iterations (``StatementDurations``); nil in reports of schema 4 or
    /// before.
    public var durations: StatementDurations?

    public init(
        shape: String, purpose: String, count: Int, totalSeconds: Double, maxSeconds: Double, rowsReturned: Int, rowsChanged: Int,
        fullScanSteps: Int, firstCallSite: String, queryPlan: [String]?, durations: StatementDurations? = nil
    ) {
        self.durations = durations
        self.shape = shape
        self.purpose = purpose
        self.count = count
        self.totalSeconds = totalSeconds
        self.maxSeconds = maxSeconds
        self.rowsReturned = rowsReturned
        self.rowsChanged = rowsChanged
        self.fullScanSteps = fullScanSteps
        self.firstCallSite = firstCallSite
        self.queryPlan = queryPlan
    }
}
