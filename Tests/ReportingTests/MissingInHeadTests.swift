import Foundation
@testable import Reporting
import Testing

/// A scenario or counter that BASE had and HEAD lacks is a regression:
/// a run that measured less must not pass as one without a regression.
@Suite struct MissingInHeadTests {
    typealias T = ReportComparisonTests

    static let base = T.report([T.scenario("Prefetch", times: T.steady), T.scenario("Cache", times: T.steady)])

    static func skipped(_ name: String) -> ScenarioReport {
        ScenarioReport(name: name, description: "", dataSet: "selfies", status: .skipped, error: "interrupted")
    }

    static let heads: [(String, Report)] = [
        ("nothing", T.report([])),
        ("a subset", T.report([T.scenario("Prefetch", times: T.steady)])),
        ("a skipped scenario", T.report([T.scenario("Prefetch", times: T.steady), skipped("Cache")])),
        ("everything skipped", T.report([skipped("Prefetch"), skipped("Cache")])),
        ("other names", T.report([T.scenario("Prefetch2", times: T.steady), T.scenario("Cache2", times: T.steady)])),
        ("no counters", T.report([T.scenario("Prefetch", times: T.steady, counters: [:]), T.scenario("Cache", times: T.steady)])),
        ("a lost counter", T.report([T.scenario("Prefetch", times: T.steady, counters: ["sqlStatements": 5]), T.scenario("Cache", times: T.steady)])),
    ]

    @Test func whatHeadLacksIsARegression() {
        for (what, head) in Self.heads {
            #expect(ReportComparer().compare(Self.base, head).hasRegression, "\(what)")
        }
    }

    @Test func aLostCounterSaysSo() {
        let head = Self.heads.first { $0.0 == "a lost counter" }!.1
        let counter = ReportComparer().compare(Self.base, head).scenarios[0].counters.first { $0.name == "rowsRead" }
        #expect(counter?.verdict == .missing)
        #expect(counter?.base == 100)
    }

    @Test func aScenarioThatFailedInBaseIsNotMissed() {
        var base = Self.base
        base.scenarios[1].status = .failed
        #expect(!ReportComparer().compare(base, T.report([T.scenario("Prefetch", times: T.steady)])).hasRegression)
    }

    @Test func newScenariosInHeadAreNoRegression() {
        let head = T.report(Self.base.scenarios + [T.scenario("Uniquing", times: T.steady)])
        #expect(!ReportComparer().compare(Self.base, head).hasRegression)
    }

    @Test func allowMissingMakesASubsetIntended() throws {
        var lenient = ReportComparer()
        lenient.allowMissing = true
        for (what, head) in Self.heads {
            #expect(!lenient.compare(Self.base, head).hasRegression, "\(what)")
        }
        let lost = lenient.compare(Self.base, Self.heads.first { $0.0 == "a lost counter" }!.1)
        #expect(lost.scenarios[0].counters.first { $0.name == "rowsRead" }?.verdict == .allowed)
        // A failure is never an intended subset.
        var failed = T.scenario("Cache", times: T.steady)
        failed.status = .failed
        #expect(lenient.compare(Self.base, T.report([T.scenario("Prefetch", times: T.steady), failed])).hasRegression)
    }

    @Test func theJSONSaysWhichScenarioGatesAndWhatIsMissing() throws {
        let comparison = ReportComparer().compare(Self.base, Self.heads.first { $0.0 == "a lost counter" }!.1)
        #expect(comparison.scenarios.map(\.regression) == [true, false])
        let json = try ComparisonFormat.json.render(comparison)
        #expect(json.contains(#""head" : null"#), "\(json)")
        #expect(try JSONDecoder().decode(ReportComparison.self, from: Data(json.utf8)) == comparison)
        // A comparison written before `regression` existed still reads (an A/A floor).
        let older = json.replacingOccurrences(of: #""regression" : true,"#, with: "").replacingOccurrences(of: #""regression" : false,"#, with: "")
        #expect(!older.contains("regression\" :"))
        #expect(try JSONDecoder().decode(ReportComparison.self, from: Data(older.utf8)).scenarios.map(\.regression) == [false, false])
    }

    @Test func theTextSaysWhatIsMissing() throws {
        let text = try ComparisonFormat.text.render(ReportComparer().compare(Self.base, Self.heads.first { $0.0 == "a skipped scenario" }!.1))
        #expect(text.contains("\nregression  Cache: head skipped: interrupted (missing in head: a regression; --allow-missing if intended); sqlStatements 5 → none (missing), rowsRead 100 → none (missing)\n"), "\(text)")
        var lenient = ReportComparer()
        lenient.allowMissing = true
        let allowed = try ComparisonFormat.text.render(lenient.compare(Self.base, Self.heads.first { $0.0 == "a skipped scenario" }!.1))
        #expect(allowed.contains("\nnot comparable  Cache: head skipped: interrupted; sqlStatements 5 → none (allowed), rowsRead 100 → none (allowed)\n"), "\(allowed)")
    }
}
