import Foundation
import Probes

extension Trend {
    /// The trend of `runs` (as a ``HistoryStore`` gives them back, any
    /// order): a line per scenario and ``Line/Key``, its commits ordered by
    /// their first run (then by name), every passed scenario's samples of
    /// `timing` (CPU time by default, as `perf-run compare` judges) pooled
    /// per commit, on the machine's speed where every run of the line has
    /// a probe (``Line/probe``), its exact counters, and the changes found
    /// (``TimingChangePoints`` for the times; any change of a counter).
    ///
    /// Only passed scenarios count. `window.scenarios`, when not empty,
    /// keeps those scenarios and orders the lines; lines are otherwise
    /// ordered by scenario name, then key.
    public init(runs: [HistoryRun], source: String, window: Window, detection: ChangeDetection = .standard, timing: TimingMeasure = .cpu) {
        struct Measured {
            var time: Date
            var identity: String
            var scenario: ScenarioReport
        }
        var byLine: [Line.Key: [String: [Measured]]] = [:]
        let wanted = Set(window.scenarios)
        for run in runs {
            let configuration = run.report.configuration
            for scenario in run.report.scenarios where scenario.status == .passed && (wanted.isEmpty || wanted.contains(scenario.name)) {
                let key = Line.Key(
                    scenario: scenario.name, project: run.project, branch: run.branch, runner: run.runner, scale: configuration.scale,
                    seed: configuration.seed, store: configuration.store, build: run.report.environment.buildConfiguration)
                byLine[key, default: [:]][run.commit, default: []].append(Measured(time: run.time, identity: run.identity.rawValue, scenario: scenario))
            }
        }
        func order(_ a: Line.Key, _ b: Line.Key) -> Bool {
            let (i, j) = (window.scenarios.firstIndex(of: a.scenario) ?? .max, window.scenarios.firstIndex(of: b.scenario) ?? .max)
            if i != j { return i < j }
            if a.scenario != b.scenario { return a.scenario < b.scenario }
            if (a.project, a.branch, a.runner) != (b.project, b.branch, b.runner) {
                return (a.project, a.branch, a.runner) < (b.project, b.branch, b.runner)
            }
            return (a.scale, a.seed, a.store.rawValue, a.build) < (b.scale, b.seed, b.store.rawValue, b.build)
        }
        let lines = byLine.keys.sorted(by: order).map { key in
            let commits = byLine[key]!.map { commit, measured in
                (commit: commit, runs: measured.sorted { ($0.time, $0.identity) < ($1.time, $1.identity) })
            }.sorted { ($0.runs[0].time, $0.commit) < ($1.runs[0].time, $1.commit) }
            return Self.line(
                key, commits: commits.map { ($0.commit, $0.runs.map(\.time), $0.runs.map(\.scenario)) }, detection: detection, timing: timing)
        }
        self.init(source: source, window: window, detection: detection, timing: timing, lines: lines)
    }

    /// One line from its commits in order, each with its runs' times and
    /// scenario reports, oldest first.
    static func line(
        _ key: Line.Key, commits: [(commit: String, times: [Date], scenarios: [ScenarioReport])], detection: ChangeDetection, timing: TimingMeasure
    ) -> Line {
        // On the machine's speed only when every run has a probe: a line never mixes the two.
        let probes = commits.map { $0.scenarios.map { probe($0, timing) } }
        let lineProbe: Double? = probes.joined().contains(nil) ? nil : Statistics.median(ofSorted: probes.joined().compactMap { $0 }.sorted())
        let points = zip(commits, probes).map { commit, probes in
            let samples = zip(commit.scenarios, probes).flatMap { scenario, probe in
                let measured = Self.samples(scenario, timing)
                guard let lineProbe, let probe else { return measured }
                return measured.map { $0 / probe * lineProbe }
            }
            let commitProbe = lineProbe == nil ? nil : Statistics.median(ofSorted: probes.compactMap { $0 }.sorted())
            return CommitPoint(
                commit: commit.commit, firstRun: commit.times[0], runs: commit.scenarios.count, time: MedianInterval(samples), samples: samples,
                probe: commitProbe)
        }
        // Counters: every name any run has, advisory ones left out.
        var names: Set<String> = []
        for (_, _, scenarios) in commits {
            for scenario in scenarios { names.formUnion(exactCounters(scenario).keys) }
        }
        let counters = Self.reportOrder(names).map { name in
            CounterSeries(name: name, direction: CounterName(rawValue: name)?.direction, points: commits.map { commit, _, scenarios in
                let values = scenarios.compactMap { exactCounters($0)[name] }
                return CounterPoint(commit: commit, value: values.last, varies: Set(values).count > 1 ? true : nil)
            })
        }
        let found = TimingChangePoints.find(points.map(\.samples), settings: detection)
        var changes: [(index: Int, order: Int, change: TrendChange)] = found.points.map { point in
            (point.index, -1, TrendChange(
                commit: points[point.index].commit, measure: .time(timing), verdict: point.after > point.before ? .regression : .improvement,
                before: point.before, after: point.after, pValue: point.pValue))
        }
        for (order, counter) in counters.enumerated() {
            var previous: Int?
            for (index, point) in counter.points.enumerated() {
                guard let value = point.value else { continue }
                if let before = previous, before != value {
                    let verdict: TrendVerdict = counter.direction == .cost ? (value > before ? .regression : .improvement) : .change
                    changes.append((index, order, TrendChange(
                        commit: point.commit, measure: .counter(counter.name), verdict: verdict, before: Double(before), after: Double(value))))
                }
                previous = value
            }
        }
        changes.sort { ($0.index, $0.order) < ($1.index, $1.order) }
        return Line(
            key: key, commits: points, counters: counters, noise: found.noise, minimumEffect: exp(found.minimumEffect), probe: lineProbe,
            changes: changes.map(\.change))
    }

    /// A passed scenario's times of `timing`: its samples, or its
    /// summary's median when it kept none.
    static func samples(_ scenario: ScenarioReport, _ timing: TimingMeasure) -> [Double] {
        let samples = scenario.samples.map(timing == .cpu ? \.cpuSeconds : \.wallSeconds).filter { $0.isFinite && $0 > 0 }
        if !samples.isEmpty { return samples }
        let summary = scenario.summary.map(timing == .cpu ? \.cpuSeconds : \.wallSeconds)
        return [summary?.median].compactMap { $0 }.filter { $0.isFinite && $0 > 0 }
    }

    /// The median of a run's machine speed probe of `timing`, in seconds;
    /// nil when the run has none (a report older than the probe).
    static func probe(_ scenario: ScenarioReport, _ timing: TimingMeasure) -> Double? {
        let samples = (scenario.machineProbe?.samples(timing) ?? []).filter { $0.isFinite && $0 > 0 }.sorted()
        return samples.isEmpty ? nil : Statistics.median(ofSorted: samples)
    }

    /// A scenario's counters that are exact: not advisory in its run nor by
    /// nature (``CounterName/Direction/advisory``).
    static func exactCounters(_ scenario: ScenarioReport) -> [String: Int] {
        let advisory = Set(scenario.advisoryCounters)
        return scenario.counters.filter { !advisory.contains($0.key) && CounterName(rawValue: $0.key)?.direction != .advisory }
    }

    /// Counter names in the report's order, names it does not know after
    /// them by name.
    static func reportOrder(_ names: Set<String>) -> [String] {
        let known = CounterName.allCases.map(\.rawValue).filter(names.contains)
        return known + names.subtracting(known).sorted()
    }
}
