extension ReportComparer {
    /// Judges each statement shape's p90 that both reports have
    /// (``StatementDurations``, schema 5), and keeps in each scenario's
    /// ``ReportComparison/ScenarioComparison/statementTimings`` the shapes
    /// whose p90 got slower or faster beyond the noise.
    ///
    /// The samples are the p90 of each measured iteration, judged as a
    /// scenario's time is (``NoiseModel``): the bootstrap of their lower
    /// quartiles' ratio, significant after Holm's correction over every
    /// shape compared (a family of its own: the shapes never gate), an
    /// interval beyond 1, a change beyond the minimum detectable effect and
    /// the scenario's relative floor, on the machine's speed, and a change
    /// of more than ``statementFloor`` seconds. Nothing when timings are
    /// not comparable or the scenario failed in head.
    func judgeStatementTimings(
        _ base: Report, _ head: Report, in scenarios: inout [ReportComparison.ScenarioComparison], reason: String?
    ) {
        guard reason == nil else { return }
        let baseByName = Dictionary(base.scenarios.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let headByName = Dictionary(head.scenarios.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        // Every pair of shapes first: the number of tests sets the resamples.
        var pairs: [(scenario: Int, before: StatementReport, after: StatementReport)] = []
        for (index, scenario) in scenarios.enumerated() where scenario.status == .compared {
            guard let before = baseByName[scenario.name], let after = headByName[scenario.name] else { continue }
            let baseShapes = Dictionary(before.statements.map { ($0.shape, $0) }, uniquingKeysWith: { a, _ in a })
            for statement in after.statements where statement.durations != nil {
                guard let old = baseShapes[statement.shape], old.durations != nil else { continue }
                pairs.append((index, old, statement))
            }
        }
        // Enough resamples that the smallest p-value a bootstrap gives
        // survives Holm's correction over every shape.
        let resamples = max(2_000, 50 * pairs.count)
        var tested: [(pair: Int, timing: ReportComparison.TimingComparison, p: Double, interval: BootstrapRatio.Interval)] = []
        for (number, pair) in pairs.enumerated() {
            let (b, h) = (pair.before.durations!.iterationP90Seconds, pair.after.durations!.iterationP90Seconds)
            let (timing, test) = self.timing(
                b, h, reason: nil, floor: floor.relative(for: scenarios[pair.scenario].name), resamples: resamples)
            guard let timing, let test else { continue }
            tested.append((number, timing, test.p, test.interval))
        }
        let adjusted = HolmCorrection.adjust(tested.map(\.p))
        for (test, p) in zip(tested, adjusted) {
            let pair = pairs[test.pair]
            var timing = test.timing
            timing.adjustedPValue = p
            judge(&timing, interval: test.interval, machine: scenarios[pair.scenario].machine, absolute: statementFloor)
            guard timing.verdict == .slower || timing.verdict == .faster else { continue }
            scenarios[pair.scenario].statementTimings.append(.init(
                shape: pair.after.shape, callSite: pair.after.firstCallSite, baseP90Seconds: pair.before.durations!.p90Seconds,
                headP90Seconds: pair.after.durations!.p90Seconds, timing: timing))
        }
    }
}
