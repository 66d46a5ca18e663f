/// A published experiment that the scenarios repeat: what its source
/// measured or showed, so that a run can say whether the lesson holds here.
public struct ExperimentReference: Sendable {
    /// `SingleFault vs Prefetch`.
    public var name: String
    /// The source's lesson, in one sentence.
    public var lesson: String
    /// Book, chapter and section (or listing).
    public var source: String
    /// Where and how the source measured (device, data size).
    public var sourceSetting: String
    public var kind: Kind
    /// A figure one of the scenarios records that bounds the ratio this run
    /// can show (the share of work the recommended way may skip), and what
    /// it is: the reason quotes it.
    public var bound: Bound?

    public struct Bound: Sendable {
        public var scenario: String
        /// A figure of the scenario: the largest ratio possible.
        public var figure: String
        /// `the rating test decides 41% of rows first`-style explanation,
        /// with `%share%` standing for the figure named `share`.
        public var explanation: String

        public init(scenario: String, figure: String, explanation: String) {
            self.scenario = scenario
            self.figure = figure
            self.explanation = explanation
        }
    }

    public enum Kind: Sendable {
        /// Two timed sides. `baseline` is the way the source warns against
        /// (or measured first), `treatment` the way it recommends; the
        /// source's ratio is baseline time over treatment time: above 1 the
        /// treatment is faster, below 1 slower (BatchFault against
        /// SingleFault in the book).
        case timing(baseline: Side, treatment: Side)
        /// A behaviour the source shows without timing it (uniquing, when a
        /// fault fires): reproduced when the scenario passes its own checks
        /// and records these figures.
        case behaviour(scenario: String, expectation: String, figures: [String: Double] = [:])
    }

    /// One timed side: a scenario's iteration, or one phase of it.
    public struct Side: Sendable {
        public var scenario: String
        /// A phase of the scenario (``PhaseReport``); nil for its whole iteration.
        public var phase: String?
        /// What the source printed for it, in seconds.
        public var sourceSeconds: Double
        /// How precise the figure is, in the source's words where it is not
        /// an exact figure (`just under 30 s`, `about 1.5 s`); nil when the
        /// source prints ``sourceSeconds`` as it is.
        public var sourceWords: String?

        public init(scenario: String, phase: String? = nil, sourceSeconds: Double, sourceWords: String? = nil) {
            self.scenario = scenario
            self.phase = phase
            self.sourceSeconds = sourceSeconds
            self.sourceWords = sourceWords
        }

        /// `SingleFault`, `Cache: cold`.
        public var label: String { phase.map { "\(scenario): \($0)" } ?? scenario }
    }

    public init(name: String, lesson: String, source: String, sourceSetting: String, kind: Kind, bound: Bound? = nil) {
        self.bound = bound
        self.name = name
        self.lesson = lesson
        self.source = source
        self.sourceSetting = sourceSetting
        self.kind = kind
    }

    /// The scenarios it needs.
    public var scenarios: [String] {
        switch kind {
        case .timing(let baseline, let treatment): [baseline.scenario, treatment.scenario]
        case .behaviour(let scenario, _, _): [scenario]
        }
    }
}
