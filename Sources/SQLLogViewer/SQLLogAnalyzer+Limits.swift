import Probes

/// The analyzer's bounds, and what it says when a log reaches one.
///
/// Memory stays bounded whatever the log: tables have a most entries, and
/// no text is kept longer than ``SQLLogAnalyzer/maximumStoredTextBytes``.
/// Reaching a bound never goes unsaid: ``SQLLogAnalysis/limitsReached``
/// lists each bound reached, in one line, with what it cost.
extension SQLLogAnalyzer {
    /// The longest text kept whole (a statement's shape or text, a bound
    /// value, a plan row, an entity's name); a longer one is kept cut
    /// (``keep(_:)``).
    public static let maximumStoredTextBytes = 4_096
    /// Distinct statement texts checked for repetitions with the same bound
    /// values (the repeated-statement insight).
    public static let maximumRepetitionTexts = 20_000
    /// Distinct query plan rows listed, and full scans among them.
    public static let maximumPlanRows = 1_000
    /// Plan rows kept with one statement (for the insight rules).
    public static let maximumPlanRowsPerStatement = 1_000
    /// Bound values kept with one statement: SQLite's default most
    /// parameters of one statement (`SQLITE_MAX_VARIABLE_NUMBER`).
    public static let maximumBindsPerStatement = 32_766
    /// Transactions open at once (logs of several connections nest them).
    public static let maximumOpenTransactions = 64
    /// Lines of Core Data's fetches that lazy loads are counted at, each
    /// apart (a fetch's line is its call site: a log names no other).
    public static let maximumFetchSites = 1_000

    /// A bound of the analyzer, reached by a log.
    enum Limit: Int, CaseIterable, Comparable {
        case lineLength, joinedLength, storedText, shapes, valueSets, repetitionTexts, binds, planRows, planRowsPerStatement,
            faultEntries, openTransactions, timeSum, openFetches, fetchValues, fetchValuesText, fetchSites,
            findings, shapesCounted

        static func < (a: Limit, b: Limit) -> Bool { a.rawValue < b.rawValue }

        /// The bound reached and what it cost, `count` times.
        func description(_ count: Int) -> String {
            let n = count.groupedDigits
            switch self {
            case .lineLength:
                return "lines longer than \(SQLLogAnalyzer.maximumLineBytes.groupedDigits) bytes: \(n) cut there, the rest of each skipped"
            case .joinedLength:
                return "wrapped lines joined up to \(SQLLogAnalyzer.maximumJoinedBytes.groupedDigits) bytes: \(n) continuation lines beyond that not joined"
            case .storedText:
                return "texts longer than \(SQLLogAnalyzer.maximumStoredTextBytes.groupedDigits) bytes (statements, bound values, plan rows, names): "
                    + "\(n) kept cut, ending with their length and a digest of the whole (texts that differ after the cut stay apart)"
            case .shapes:
                return "\(SQLLogAnalyzer.maximumShapes.groupedDigits) distinct statement shapes: \(n) statements of later shapes not counted apart "
                    + "(not in the statements table)"
            case .valueSets:
                return "\(SQLLogAnalyzer.maximumValueSets.groupedDigits) distinct bound values for one shape: \(n) executions with later values "
                    + "counted as similar, not checked for duplicates"
            case .repetitionTexts:
                return "\(SQLLogAnalyzer.maximumRepetitionTexts.groupedDigits) distinct statement texts: \(n) executions of later texts "
                    + "not checked for repeated statements"
            case .binds:
                return "\(SQLLogAnalyzer.maximumBindsPerStatement.groupedDigits) bound values for one statement: \(n) later values not kept"
            case .planRows:
                return "\(SQLLogAnalyzer.maximumPlanRows.groupedDigits) distinct query plan rows: \(n) later rows not listed"
            case .planRowsPerStatement:
                return "\(SQLLogAnalyzer.maximumPlanRowsPerStatement.groupedDigits) query plan rows for one statement: \(n) later rows not kept with it"
            case .faultEntries:
                return "\(SQLLogAnalyzer.maximumShapes.groupedDigits) entities and sources in a table of faults, relationship faults or prefetches: "
                    + "\(n) faults of later ones not listed"
            case .openTransactions:
                return "\(SQLLogAnalyzer.maximumOpenTransactions.groupedDigits) transactions open at once: \(n) ended as unfinished"
            case .timeSum:
                return "times adding up beyond \(Double.greatestFiniteMagnitude) s: \(n) sums held there"
            case .openFetches:
                return "\(SQLLogAnalyzer.maximumOpenFetches.groupedDigits) Core Data fetches under way at once: \(n) of the oldest dropped "
                    + "(a row count after them goes to no statement)"
            case .fetchValues:
                return "\(SQLLogAnalyzer.maximumFetchValues.groupedDigits) fetches with level 3 values: \(n) later fetches' values not kept"
            case .fetchValuesText:
                return "level 3 values longer than \(SQLLogAnalyzer.maximumStoredTextBytes.groupedDigits) bytes: \(n) kept cut, "
                    + "ending with their length in bytes and lines"
            case .findings:
                return "\(SQLLogAnalyzer.maximumFindings.groupedDigits) Core Data error and warning lines listed: \(n) later ones counted, not listed"
            case .shapesCounted:
                return "\((SQLLogAnalyzer.maximumShapes + SQLLogAnalyzer.maximumShapesCountedApart).groupedDigits) distinct statement shapes counted: "
                    + "\(n) statements of later shapes may be of shapes not counted (the count of shapes is a lower bound)"
            case .fetchSites:
                return "\(SQLLogAnalyzer.maximumFetchSites.groupedDigits) Core Data fetch lines that lazy loads come from: \(n) later lazy loads "
                    + "counted at the first line of their fetch's statement"
            }
        }
    }

    /// `text` as the analysis keeps it: whole when it has at most
    /// ``maximumStoredTextBytes`` bytes; else its first bytes (whole
    /// characters) and `… (N bytes, digest D)`, N its length and D a
    /// 64-bit FNV-1a digest of the whole text in hexadecimal, so that two
    /// long texts that differ only after the cut stay two texts. Notes the
    /// limit when it cuts.
    mutating func keep(_ text: String) -> String {
        guard text.utf8.count > Self.maximumStoredTextBytes else { return text }
        note(.storedText)
        return Self.cut(text)
    }

    /// `text` cut as ``keep(_:)`` keeps it.
    static func cut(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var digest: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes {
                digest ^= UInt64(byte)
                digest &*= 0x0000_0100_0000_01B3
            }
            // Back to the start of a character (not inside a UTF-8 sequence).
            var end = maximumStoredTextBytes
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            let hex = String(digest, radix: 16)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
                + "… (\(bytes.count) bytes, digest \(String(repeating: "0", count: 16 - hex.count))\(hex))"
        }
    }

    /// Counts a limit reached.
    mutating func note(_ limit: Limit, times: Int = 1) {
        limitsReached[limit, default: 0].addSaturated(times)
    }

    /// The limits reached, in one line each (``SQLLogAnalysis/limitsReached``).
    var limitDescriptions: [String] {
        limitsReached.sorted { $0.key < $1.key }.map { $0.key.description($0.value) }
    }

    // MARK: Times

    /// `a + b`, held at the largest finite `Double` (the limit noted).
    mutating func add(_ a: Double, _ b: Double) -> Double {
        let sum = a.addingSaturated(b)
        if sum == .greatestFiniteMagnitude, a + b == .infinity { note(.timeSum) }
        return sum
    }
}
