import Insights
import Probes

/// A run's iterations in Faultline's log (`iteration <n> begins: <scenario>`,
/// `iteration <n> ends: <scenario>`): the log is judged iteration by
/// iteration, as the run is, so that `perf-run log` gives the same rule,
/// count and site as the run's report.
///
/// A run's report judges the last measured iteration of each scenario (its
/// recorder starts afresh with each iteration); the log's insights are the
/// same iteration's. A statement once per iteration is then no repetition,
/// and a loop's count is one iteration's. What the log shows outside
/// iterations (a data set's set-up) is counted in its tables and not
/// judged, as the run does not judge it. A log without these lines (an
/// application's, Core Data's) is judged whole.
extension SQLLogAnalyzer {
    /// Acts on an iteration's line.
    mutating func noteIteration(_ iteration: SQLDebugLogAnnotation.Iteration, _ text: SQLDebugLogBytes) {
        let scenario = text.string(iteration.scenario)
        if iteration.begins {
            // What came before (set-up, or an iteration whose end the log
            // lacks) is not judged.
            startJudging()
            currentIteration = (scenario, iteration.number)
            return
        }
        guard let current = currentIteration, current.scenario == scenario, current.number == iteration.number else {
            // An end without its begin (a log cut at its start): nothing to judge.
            return startJudging()
        }
        let insights = insights()
        currentIteration = nil
        if let index = judgedScenarios.firstIndex(where: { $0.name == scenario }) {
            judgedScenarios[index].iterations += 1
            // A measured iteration (numbered from 1) over a warm-up one.
            if iteration.number >= 1 || judgedScenarios[index].iteration < 1 {
                judgedScenarios[index].iteration = iteration.number
                judgedScenarios[index].insights = insights
                unmatchedIntentionsByScenario[scenario] = lastUnmatchedIntentions
            }
        } else {
            judgedScenarios.append(SQLLogAnalysis.JudgedScenario(name: scenario, iterations: 1, iteration: iteration.number, insights: insights))
            unmatchedIntentionsByScenario[scenario] = lastUnmatchedIntentions
        }
        startJudging()
    }

    /// Starts the insights' evidence afresh: what was added so far (every
    /// waiting statement too) is no longer judged.
    mutating func startJudging() {
        flushRecentStatements()
        commitCandidateFetch()
        marksIterations = true
        evidence = freshEvidence(spanningIterations: false)
        statementAggregates.removeAll(keepingCapacity: true)
        for index in aggregateSlots.indices { aggregateSlots[index] = -1 }
        for index in logSiteSlots.indices { logSiteSlots[index] = -1 }
    }

    /// The evidence the rules read, with nothing added: of a log that
    /// may span iterations (``InsightEvidence/spansIterations``), or of one.
    func freshEvidence(spanningIterations: Bool) -> InsightEvidence {
        var evidence = InsightEvidence(aggregatingStatements: false)
        evidence.spansIterations = spanningIterations
        evidence.logName = sourceName
        return evidence
    }
}

extension SQLLogAnalysis {
    /// A scenario of a run whose log marks its iterations, and the insights
    /// of the iteration judged: the last measured one (the last warm-up one
    /// when none was measured), as the run's report judges.
    public struct JudgedScenario: Codable, Equatable, Sendable {
        /// The scenario's name.
        public var name: String
        /// Its iterations the log holds whole (warm-up ones too).
        public var iterations: Int
        /// The number of the iteration judged (warm-up ones are 0 and below).
        public var iteration: Int
        /// What the insight rules found in that iteration.
        public var insights: [Insight]

        public init(name: String, iterations: Int, iteration: Int, insights: [Insight]) {
            self.name = name
            self.iterations = iterations
            self.iteration = iteration
            self.insights = insights
        }
    }
}
