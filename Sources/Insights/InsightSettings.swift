import Foundation
import Probes
import ToolSupport

/// How the insight rules run: thresholds as data, the findings known and
/// accepted, and the rules whose findings are done on purpose.
///
/// Set per run (`perf-run run --insight-threshold rule=value`), per
/// measurement (`Faultline.measure(store, insights:)`), per scenario
/// (`Scenario(…, insights:)`), or in an insights file an application
/// commits (`--accepted-insights PATH`):
///
/// ```json
/// { "accepted": ["n-plus-one/Post/author"],
///   "thresholds": { "full-scan": 1000 },
///   "smallTableRows": 50,
///   "intended": { "sort-without-index": "the export reads every row, sorted" } }
/// ```
///
/// An older accepted-insights file (one `rule/entity/keyPath` per line,
/// `#` comments) is read as the `accepted` list alone.
public struct InsightSettings: Sendable, Equatable {
    /// Thresholds that differ from the rules' defaults.
    public var thresholds: [InsightRuleID: Int]
    /// Rules whose findings are done on purpose here, with why: their
    /// insights are reported as such, never as regressions or advice.
    public var intended: [InsightRuleID: String]
    /// Known insights: ``AcceptedInsight`` entries as written
    /// (`rule/entity/keyPath`, or with `@File.swift:line` for one site).
    public var accepted: Set<String>
    /// The size below which a table is small, where it differs from
    /// ``defaultSmallTableRows``: a full scan or a sort that steps through
    /// fewer rows than this per execution is no mistake (the `full-scan`
    /// and `sort-without-index` rules, and `requireNoFullScan`, leave it
    /// out). 1 counts every scan.
    public var smallTableRows: Int?

    /// The default size below which a table is small: 50 rows. SQLite
    /// reads a table of fewer rows in a page or two (4 KiB pages hold
    /// dozens of short rows), about what a lookup through an index reads
    /// (the index's page, then the table's): scanning or sorting such a
    /// table costs microseconds, and an index on it would be one more
    /// structure to write on every insert for nothing.
    public static let defaultSmallTableRows = 50

    public init(
        thresholds: [InsightRuleID: Int] = [:], intended: [InsightRuleID: String] = [:], accepted: Set<String> = [],
        smallTableRows: Int? = nil
    ) {
        self.thresholds = thresholds
        self.intended = intended
        self.accepted = accepted
        self.smallTableRows = smallTableRows
    }

    /// The size below which a table is small, set or default: a scan that
    /// steps through fewer rows per execution is no mistake.
    public var smallTableRowLimit: Int { smallTableRows ?? Self.defaultSmallTableRows }

    /// Whether `statement`'s full scans stepped through so few rows per
    /// execution that its table is small (``smallTableRowLimit``): known
    /// only where step counts are (a run, Faultline's log; a Core Data
    /// log has plans only, and no table is small there).
    public func scansASmallTable(_ statement: StatementAggregate, stepsKnown: Bool = true) -> Bool {
        guard stepsKnown, statement.count > 0 else { return false }
        return statement.fullScanSteps / statement.count < smallTableRowLimit
    }

    /// The threshold `rule` runs with.
    public func threshold(for rule: any InsightRule) -> Int {
        thresholds[rule.id] ?? rule.threshold.defaultValue
    }

    /// These settings, with `other`'s thresholds, intentions and accepted
    /// insights added (`other` wins where both set one).
    public func merging(_ other: InsightSettings) -> InsightSettings {
        InsightSettings(
            thresholds: thresholds.merging(other.thresholds) { $1 }, intended: intended.merging(other.intended) { $1 },
            accepted: accepted.union(other.accepted), smallTableRows: other.smallTableRows ?? smallTableRows)
    }

    /// The accepted list as ``AcceptedInsights``.
    public var acceptedInsights: AcceptedInsights { AcceptedInsights(identities: accepted) }

    // MARK: Reading

    /// One `rule=value` of `--insight-threshold`; an error names what is wrong.
    public static func threshold(_ text: String) throws(ReportError) -> (InsightRuleID, Int) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ReportError("--insight-threshold \(text): expected rule=value (\(knownRules))") }
        let rule = InsightRuleID(String(parts[0]).trimmingCharacters(in: .whitespaces))
        guard InsightEngine.rule(rule) != nil else { throw ReportError("--insight-threshold \(text): unknown rule \(rule) (\(knownRules))") }
        guard let value = Int(parts[1].trimmingCharacters(in: .whitespaces)), value >= 1 else {
            throw ReportError("--insight-threshold \(text): the value must be a whole number of 1 or more")
        }
        return (rule, value)
    }

    /// Reads an insights file: the JSON form above, or an accepted-insights
    /// list. An error names the file and the key path (or line) that is wrong.
    public init(contentsOf path: String) throws(ReportError) {
        let data = try InputFile.read(path, what: "insights file")
        guard let text = String(data: data, encoding: .utf8) else { throw ReportError("\(path): not UTF-8 text") }
        guard let first = text.drop(while: \.isWhitespace).first, first == "{" || first == "[" else {
            self.init(accepted: try AcceptedInsights(text: text, path: path).identities)
            return
        }
        // A key given twice, a number out of range: named with its key path.
        if let problem = JSONTextScan.problem(in: data) { throw ReportError("\(path): \(problem)") }
        let form: SettingsFile
        do {
            form = try JSONDecoder().decode(SettingsFile.self, from: data)
        } catch let error as SettingsFile.Failure {
            throw ReportError("\(path): \(error.description)")
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            let reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
            throw ReportError("\(path): not valid JSON (\(reason))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.dataCorrupted(context)
        {
            let keyPath = JSONKeyPath(codingPath: context.codingPath).text
            throw ReportError("\(path): \(keyPath.isEmpty ? "" : keyPath + ": ")\(Self.expectation(for: context.codingPath))")
        } catch {
            throw ReportError("\(path): not valid JSON (\(error))")
        }
        self.init(thresholds: form.thresholds, intended: form.intended, accepted: form.accepted, smallTableRows: form.smallTableRows)
    }

    /// What a value at a key path must be, for errors.
    private static func expectation(for path: [any CodingKey]) -> String {
        switch path.first?.stringValue {
        case "accepted": "expected a list of \"\(AcceptedInsight.form)\""
        case "thresholds": "expected a whole number of 1 or more for each rule"
        case "intended": "expected a reason (a string) for each rule"
        case "smallTableRows": "expected a whole number of 1 or more"
        default: "expected a JSON object with accepted, thresholds, intended and smallTableRows"
        }
    }

    /// The rules' names, for errors.
    static var knownRules: String { InsightEngine.rules.map(\.id.rawValue).joined(separator: ", ") }
}

/// The JSON form of an insights file, every key checked.
private struct SettingsFile: Decodable {
    var accepted: Set<String> = []
    var thresholds: [InsightRuleID: Int] = [:]
    var intended: [InsightRuleID: String] = [:]
    var smallTableRows: Int?

    /// A value that is valid JSON but not a setting: its key path and why.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Key: CodingKey {
        let stringValue: String
        let intValue: Int? = nil
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: Key.self)
        for key in root.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            switch key.stringValue {
            case "accepted":
                guard let list = try? root.decode([String].self, forKey: key) else {
                    throw Failure(description: "accepted: expected a list of \"\(AcceptedInsight.form)\"")
                }
                for (index, identity) in list.enumerated() {
                    guard AcceptedInsight(identity) != nil else {
                        throw Failure(description: "accepted[\(index)]: expected \"\(AcceptedInsight.form)\", got \"\(identity)\"")
                    }
                    accepted.insert(identity)
                }
            case "thresholds":
                guard let table = try? root.nestedContainer(keyedBy: Key.self, forKey: key) else {
                    throw Failure(description: "thresholds: expected an object of rule: value")
                }
                for name in table.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    let rule = try Self.rule(name, in: "thresholds")
                    let wrong = Failure(description: "thresholds.\(name.stringValue): expected a whole number of 1 or more for each rule")
                    guard let number = try? table.decode(Double.self, forKey: name), let value = Int(exactly: number) else { throw wrong }
                    guard value >= 1 else { throw Failure(description: "thresholds.\(name.stringValue): \(value) is below 1") }
                    thresholds[rule] = value
                }
            case "intended":
                guard let table = try? root.nestedContainer(keyedBy: Key.self, forKey: key) else {
                    throw Failure(description: "intended: expected an object of rule: reason")
                }
                for name in table.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    let rule = try Self.rule(name, in: "intended")
                    guard let reason = try? table.decode(String.self, forKey: name) else {
                        throw Failure(description: "intended.\(name.stringValue): expected a reason (a string)")
                    }
                    guard !reason.isEmpty else { throw Failure(description: "intended.\(name.stringValue): the reason is empty") }
                    intended[rule] = reason
                }
            case "smallTableRows":
                let wrong = Failure(description: "smallTableRows: expected a whole number of 1 or more")
                guard let number = try? root.decode(Double.self, forKey: key), let value = Int(exactly: number) else { throw wrong }
                guard value >= 1 else { throw Failure(description: "smallTableRows: \(value) is below 1") }
                smallTableRows = value
            default:
                throw Failure(description: "\(key.stringValue): unknown key (accepted, thresholds, intended, smallTableRows)")
            }
        }
    }

    private static func rule(_ key: Key, in section: String) throws -> InsightRuleID {
        let rule = InsightRuleID(key.stringValue)
        guard InsightEngine.rule(rule) != nil else {
            throw Failure(description: "\(section).\(key.stringValue): unknown rule (\(InsightSettings.knownRules))")
        }
        return rule
    }
}
