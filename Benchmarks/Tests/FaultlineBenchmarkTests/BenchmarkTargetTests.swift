@testable import FaultlineBenchmark
import Testing

/// The targets of `make bench` judged on results and printed beside their
/// figures: met, not met, a figure the run did not measure, a pattern the
/// run left out.
@Suite struct BenchmarkTargetTests {
    /// One pattern's results with the given ratio medians (each over
    /// rounds around it) and instructions per access.
    static func result(
        _ pattern: Pattern, ratios: [BenchmarkRatio: Double], instructions: [Variant: Double] = [:], callgrindScale: Double? = nil
    ) -> BenchmarkResults.PatternResult {
        BenchmarkResults.PatternResult(
            pattern: pattern.rawValue, accessUnit: pattern.accessUnit, accesses: 1_000,
            seconds: [Variant.faultline.rawValue: .init([0.010, 0.011, 0.012])],
            ratios: Dictionary(uniqueKeysWithValues: ratios.map { ($0.rawValue, BenchmarkResults.Spread([$1 * 0.9, $1, $1 * 1.1])) }),
            instructionsPerAccess: Dictionary(uniqueKeysWithValues: instructions.map { ($0.rawValue, $1) }), callgrindScale: callgrindScale,
            peakResidentBytes: [:])
    }

    static func results(_ patterns: [BenchmarkResults.PatternResult]) -> BenchmarkResults {
        BenchmarkResults(
            date: "2026-12-01T00:00:00Z", machine: .init(cpu: "CPU", cores: 2, sqliteVersion: "3.40.1", swiftVersion: "6.3 or later"), scale: 0.02,
            rounds: 1, patterns: patterns)
    }

    /// The micro patterns as issue 47 found them: AttributeRead 4.59x GRDB
    /// and 98 instructions; RowCacheFault's instructions under 250 with no
    /// sink and over 350 with the recorder.
    static let micro = results([
        result(.attributeRead, ratios: [.faultlineOverGRDB: 4.59, .generatedOverHandWritten: 0.99], instructions: [.faultline: 98], callgrindScale: 0.2),
        result(.rowCacheFault, ratios: [.faultlineOverGRDB: 1.0, .generatedOverHandWritten: 1.06],
               instructions: [.faultline: 492, .faultlineSinksOff: 240], callgrindScale: 0.2),
    ])

    /// A table's rows as trimmed cells.
    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| -") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func eachTargetIsJudgedOnItsPatternsFigure() throws {
        let (judgements, notRun) = BenchmarkTarget.judge(Self.micro)
        let verdicts = judgements.map { "\($0.pattern) \($0.target.figureName) \($0.verdict.rawValue)" }
        #expect(verdicts == [
            "AttributeRead F / GRDB not met",  // 4.59x against at most 1.5x
            "AttributeRead instr/access F not met",  // 98 against at most 60
            "RowCacheFault F / GRDB met",  // 1.00x: at most GRDB's time, met at equal
            "RowCacheFault instr/access F, sinks off met",  // 240 against at most 250
            "RowCacheFault instr/access F not met",  // 492 against at most 350
            "RowCacheFault generated / hand-written not met",  // 1.06x against 1.05x
            "AttributeRead generated / hand-written met",
        ])
        #expect(judgements.first?.value == 4.59)
        // The other patterns' targets are named as not in this run.
        let missing = notRun.map { "\($0.target.figureName): \($0.patterns.joined(separator: ","))" }
        #expect(missing == [
            "F / GRDB: CreateDataSet,FetchAll,SingleFault,BatchFault,Prefetch,Subquery.byHand,Subquery.subquery,BatchUpdate.oneAtATime,"
                + "BatchUpdate.batch,BatchInsert.oneAtATime,BatchInsert.batch",
            "F / limit: SingleFault,Prefetch",
        ])
    }

    @Test func fasterThanIsStrictAndAtMostIsNot() throws {
        let target = try #require(BenchmarkTarget.all.first { $0.strictly })
        #expect(target.figure == .ratio(.faultlineOverGRDB) && target.boundText == "< 1.00x")
        #expect(!target.isMet(by: 1) && target.isMet(by: 0.999))
        let limit = try #require(BenchmarkTarget.all.first { $0.figure == .ratio(.faultlineOverLimit) })
        #expect(limit.boundText == "≤ 1.60x" && limit.isMet(by: 1.6) && !limit.isMet(by: 1.61))
    }

    /// A figure that would print as its bound is printed with the digits
    /// that tell them apart; the bound itself as it is.
    @Test func aFigureAtItsBoundIsToldApart() throws {
        let results = Self.results([Self.result(
            .rowCacheFault, ratios: [.faultlineOverGRDB: 1.004, .generatedOverHandWritten: 1.05],
            instructions: [.faultlineSinksOff: 250.4, .faultline: 349.9996], callgrindScale: 0.2)])
        let rows = Self.rows(BenchmarkTarget.render(results))
        #expect(rows[1...] == [
            ["RowCacheFault", "F / GRDB", "1.004x", "≤ 1.00x", "not met"],
            ["RowCacheFault", "instr/access F, sinks off", "250.4", "≤ 250", "not met"],
            ["RowCacheFault", "instr/access F", "349.9996", "≤ 350", "met"],
            ["RowCacheFault", "generated / hand-written", "1.05x", "≤ 1.05x", "met"],
        ])
    }

    /// A figure the run did not measure (no callgrind) is neither met nor
    /// not met, and the printed line says why.
    @Test func aFigureNotMeasuredIsSaid() throws {
        let results = Self.results([Self.result(.attributeRead, ratios: [.faultlineOverGRDB: 1.2])])
        let (judgements, _) = BenchmarkTarget.judge(results)
        #expect(judgements.map(\.verdict) == [.met, .notMeasured, .notMeasured])
        #expect(judgements[1].value == nil && judgements[2].value == nil)
        let text = BenchmarkTarget.render(results)
        let rows = Self.rows(text)
        #expect(rows[0] == ["pattern", "figure", "measured", "target", "verdict"])
        #expect(rows[1] == ["AttributeRead", "F / GRDB", "1.20x", "≤ 1.50x", "met"])
        #expect(rows[2] == ["AttributeRead", "instr/access F", "-", "≤ 60", "not measured"])
        #expect(rows[3] == ["AttributeRead", "generated / hand-written", "-", "≤ 1.05x", "not measured"])
        #expect(text.contains("\n3 judged: 1 met, 0 not met, 2 not measured (instructions: --callgrind-scale 0)."))
        // A ratio that is not a number (no rounds) is not measured either.
        let empty = BenchmarkResults.PatternResult(
            pattern: "AttributeRead", accessUnit: "attribute read", accesses: 0, seconds: [:],
            ratios: [BenchmarkRatio.faultlineOverGRDB.rawValue: .init([])], instructionsPerAccess: [:], callgrindScale: nil, peakResidentBytes: [:])
        #expect(try #require(BenchmarkTarget.all.first { $0.patterns == [.attributeRead] }).judge(empty).verdict == .notMeasured)
    }

    @Test func theTableShowsEachFigureBesideItsTarget() {
        let text = BenchmarkTable.render(Self.micro)
        #expect(text.contains("\n\nTargets (BenchmarkTarget.all), each figure beside its target:\n| pattern "))
        let rows = Self.rows(text.components(separatedBy: "Targets (BenchmarkTarget.all)")[1])
        #expect(rows.contains(["AttributeRead", "F / GRDB", "4.59x", "≤ 1.50x", "not met"]))
        #expect(rows.contains(["AttributeRead", "instr/access F", "98", "≤ 60", "not met"]))
        #expect(rows.contains(["RowCacheFault", "F / GRDB", "1.00x", "≤ 1.00x", "met"]))
        #expect(rows.contains(["RowCacheFault", "instr/access F, sinks off", "240", "≤ 250", "met"]))
        #expect(rows.contains(["RowCacheFault", "instr/access F", "492", "≤ 350", "not met"]))
        #expect(text.contains("\n7 judged: 3 met, 4 not met, 0 not measured.\n"))
        #expect(text.contains("\nNot in this run: F / limit ≤ 1.60x for SingleFault, Prefetch.\n"))
    }

    /// Every pattern faster than GRDB: a pattern at GRDB's time is not.
    @Test func everyOtherPatternMustBeFasterThanGRDB() {
        let results = Self.results([
            Self.result(.batchUpdate, ratios: [.faultlineOverGRDB: 1.0]), Self.result(.fetchAll, ratios: [.faultlineOverGRDB: 0.87]),
            Self.result(.singleFault, ratios: [.faultlineOverGRDB: 0.18, .faultlineOverLimit: 1.56]),
            Self.result(.prefetch, ratios: [.faultlineOverGRDB: 0.17, .faultlineOverLimit: 1.7]),
            Self.result(.batchUpdateOneAtATime, ratios: [.faultlineOverGRDB: 0.998]),
        ])
        let rows = Self.rows(BenchmarkTarget.render(results))
        // Just under the bound: the digits that tell them apart.
        #expect(rows.contains(["BatchUpdate.oneAtATime", "F / GRDB", "0.998x", "< 1.00x", "met"]))
        #expect(rows.contains(["BatchUpdate.batch", "F / GRDB", "1.00x", "< 1.00x", "not met"]))
        #expect(rows.contains(["FetchAll", "F / GRDB", "0.87x", "< 1.00x", "met"]))
        #expect(rows.contains(["SingleFault", "F / limit", "1.56x", "≤ 1.60x", "met"]))
        #expect(rows.contains(["Prefetch", "F / limit", "1.70x", "≤ 1.60x", "not met"]))
    }
}
