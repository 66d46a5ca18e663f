extension ExperimentReport {
    /// What happened here, in one sentence a reader learns from: which
    /// way is faster and by how much, with the statements each ran and
    /// where the difference lies (SQLite or the rest); for a behaviour,
    /// what the scenario showed. No signed figures.
    public var mechanism: String {
        guard let baseline, let treatment else {
            return verdict == .reproduced ? "Seen here: \(expectation ?? lesson)." : reason
        }
        let (nb, nt) = (baseline.counters[.sqlStatements] ?? 0, treatment.counters[.sqlStatements] ?? 0)
        let statements = nb == nt
            ? "both run \(ExperimentAnalysis.plural(nb, "statement"))"
            : "\(baseline.label) runs \(ExperimentAnalysis.plural(nb, "statement")), \(treatment.label) \(CountText.count(nt))"
        return String(ExperimentAnalysis.comparison(baseline, treatment).dropLast()) + "; \(statements)."
    }

    /// What happened here, as every output says it under the experiment
    /// (the terminal, the Markdown and the page): the mechanism, then the
    /// break-even where there is one.
    public var lessonSentences: [String] {
        [mechanism] + (breakEvenSentence.map { [$0] } ?? [])
    }

    /// The break-even the report holds, or, for a report written before
    /// it was worked out, the one its sides give.
    public var statementBreakEven: StatementBreakEven? {
        if let breakEven { return breakEven }
        guard let baseline, let treatment, let sourceRatio else { return nil }
        return StatementBreakEven(baseline: baseline, treatment: treatment, sourceRatio: sourceRatio)
    }

    /// The break-even (``StatementBreakEven``) in one sentence: `A statement
    /// costs about 27.3 µs of SQLite here; Prefetch runs 1,996 fewer and
    /// would win once a statement costs more than 32.8 µs (the book's 10x at
    /// about 969 µs a statement).`; nil without one.
    public var breakEvenSentence: String? {
        guard let breakEven = statementBreakEven, let treatment else { return nil }
        var text = "A statement costs about \(TimeText.seconds(breakEven.statementSeconds)) of SQLite here; \(treatment.label) runs "
            + "\(CountText.count(breakEven.fewerStatements)) fewer and "
        if breakEven.breakEvenSeconds == 0 {
            // Faster here with fewer statements: unless the measurement
            // cannot tell the two apart, it wins whatever a statement costs.
            text += verdict == .absent
                ? "takes the same time here within the noise: each statement it saves counts for it as statements cost more"
                : "wins at any cost per statement"
        } else if breakEven.winsHere {
            text += "wins once a statement costs more than \(TimeText.seconds(breakEven.breakEvenSeconds)), as it does here"
        } else {
            text += "would win once a statement costs more than \(TimeText.seconds(breakEven.breakEvenSeconds))"
        }
        if let sourceRatio {
            if let needed = breakEven.sourceRatioSeconds {
                text += " (the book's \(ExperimentReport.ratio(sourceRatio)) at about \(TimeText.seconds(needed)) a statement)"
            } else {
                let own = treatment.counters[.sqlStatements] ?? 0
                text += "; no cost per statement gives the book's \(ExperimentReport.ratio(sourceRatio)): \(treatment.label) still runs "
                    + "\(ExperimentAnalysis.plural(own, "statement")) of its own"
            }
        }
        return text + "."
    }

    /// The source's figures with their own precision, and this run's:
    /// `book: SingleFault just under 30 s, Prefetch just under 3 s; here:
    /// 192 ms and 203 ms`; nil for a behaviour.
    public var sidesText: String? {
        guard let baseline, let treatment else { return nil }
        return "book: \(baseline.label) \(baseline.sourceFigure), \(treatment.label) \(treatment.sourceFigure); "
            + "here: \(TimeText.seconds(baseline.medianSeconds)) and \(TimeText.seconds(treatment.medianSeconds)) (medians)"
    }
}
