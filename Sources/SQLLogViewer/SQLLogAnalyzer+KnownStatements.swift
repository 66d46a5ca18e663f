import Foundation
import Probes

/// Statement texts read before: what the analyzer derives from a text (its
/// shape, transaction control, facts, the text kept) is derived once per
/// distinct text, not once per execution. A log repeats a few texts many
/// times (values are bound, not spliced), and deriving the facts alone
/// tokenizes the whole statement.
///
/// Each entry holds exactly what the derivations give for its text, so a
/// statement read through the table is analyzed as one read without it.
/// The table is bounded (``maximumKnownStatements`` texts of at most
/// ``maximumStoredTextBytes`` bytes each) and keeps every text it takes;
/// a text is found by a digest of its bytes, the bytes compared. An entry
/// never changes once made, so a copy of the analyzer (a snapshot finished
/// while the original reads on) shares it safely; what the analyzer learns
/// of a text later (its shape's place, whether its repetitions are counted,
/// facts per list of values, its number in the evidence) is kept in the
/// analyzer's own arrays, by the entry's number (``KnownStatementState``).
extension SQLLogAnalyzer {
    /// Distinct statement texts kept with what was derived from them.
    static let maximumKnownStatements = 2_048

    /// A statement text and what was derived from it.
    final class KnownStatement {
        let sql: String
        /// ``SQLShape/normalize(_:)`` of the text.
        let shape: String
        /// The shape as the analysis keeps it (``keep(_:)``), and whether
        /// keeping it cut it (each use notes the limit).
        let keptShape: String
        let shapeCut: Bool
        /// The text as the analysis keeps it.
        let keptSQL: String
        let sqlCut: Bool
        let control: TransactionControl?
        /// A SELECT (not a transaction's statement).
        let isSelect: Bool
        /// Whether the kept text has a `?` (its values are in binds).
        let hasParameterMark: Bool
        /// The facts (nil for a transaction's statement), when they do not
        /// depend on the bound values (no `LIKE` or `GLOB`, which read a
        /// bound pattern); `.none` when they are derived per execution.
        let facts: StatementFacts??
        /// What a statement of the text reads, as a Core Data fetch needs
        /// it (``read(_:)``), when its facts do not depend on the values.
        let read: (entity: String, isKeyLookup: Bool)?
        /// The hash of the statement's values when it has no bound values:
        /// its text's (``finishStatement(seconds:rows:figures:)``).
        let hashWithoutBinds: Int
        /// The text's place in the analyzer's table of ``KnownStatementState``.
        let number: Int

        init(sql: String, number: Int) {
            self.sql = sql
            self.number = number
            shape = SQLShape.normalize(sql)
            shapeCut = shape.utf8.count > SQLLogAnalyzer.maximumStoredTextBytes
            keptShape = shapeCut ? SQLLogAnalyzer.cut(shape) : shape
            sqlCut = sql.utf8.count > SQLLogAnalyzer.maximumStoredTextBytes
            keptSQL = sqlCut ? SQLLogAnalyzer.cut(sql) : sql
            control = TransactionControl(sql)
            isSelect = control == nil && SQLLogAnalyzer.isSelect(shape)
            hasParameterMark = SQLLogAnalyzer.hasParameterMark(keptSQL)
            if control != nil {
                facts = .some(nil)
            } else if Self.factsMayReadValues(sql) {
                facts = .none
            } else {
                facts = .some(LoggedStatementFacts.facts(sql: sql, arguments: []))
            }
            if case .some(let facts) = facts { read = Self.read(facts) } else { read = nil }
            var hasher = Hasher()
            hasher.combine([String]())
            hasher.combine(sql)
            hashWithoutBinds = hasher.finalize()
        }

        /// The table a statement of `facts` reads (`?` when the log does
        /// not say) and whether it is a lookup by key.
        static func read(_ facts: StatementFacts?) -> (entity: String, isKeyLookup: Bool) {
            (facts?.entity ?? "?", facts.map { $0.filters.isEmpty && $0.hasOtherConditions } ?? true)
        }

        /// Whether a statement's facts may depend on its bound values: a
        /// `LIKE` or `GLOB` (any case) whose pattern is bound, or a text
        /// beyond ASCII (whose letters may uppercase to one).
        static func factsMayReadValues(_ sql: String) -> Bool {
            var sql = sql
            return sql.withUTF8 { bytes in
                guard SQLDebugLogBytes.isASCII(UnsafeRawBufferPointer(bytes)) else { return true }
                guard bytes.count >= 4 else { return false }
                for index in 0...(bytes.count - 4) {
                    let word = (bytes[index] | 0x20, bytes[index + 1] | 0x20, bytes[index + 2] | 0x20, bytes[index + 3] | 0x20)
                    if word == (0x6C, 0x69, 0x6B, 0x65) || word == (0x67, 0x6C, 0x6F, 0x62) { return true }  // like, glob
                }
                return false
            }
        }
    }

    /// What the analyzer learned of a known text while reading.
    struct KnownStatementState {
        /// ``KnownStatement/hasParameterMark``, here where a statement's
        /// figures are added up without taking the known text itself.
        var hasParameterMark: Bool
        /// Where its shape is in the statements table, once listed.
        var shapeIndex: Int?
        /// Whether its repetitions are counted (among the first
        /// ``maximumRepetitionTexts`` texts).
        var repetitionsChecked = false
        /// Facts that read the bound values, per list of values (at most
        /// ``maximumFactsByValues`` lists; others are derived per execution).
        var factsByValues: [[String]: StatementFacts?] = [:]
        static let maximumFactsByValues = 64
        /// Its number in the evidence's repetition counts, once counted.
        var evidenceTextID: Int?
    }

    /// The number of the kept statement text `sql` in the evidence's
    /// repetition counts: one per text as `String`s compare (texts that
    /// differ in bytes but not as characters share one, as they share one
    /// entry of the evidence's own table), found by hashing the text once per
    /// known text, or per execution of another. Asked for counted
    /// statements only: at most ``maximumRepetitionTexts`` texts or so.
    mutating func evidenceTextID(_ sql: String, known: KnownStatement?) -> Int {
        if let known, let number = knownStates[known.number].evidenceTextID { return number }
        let number: Int
        if let existing = evidenceTextIDs[sql] {
            number = existing
        } else {
            number = evidenceTextIDs.count
            evidenceTextIDs[sql] = number
        }
        if let known { knownStates[known.number].evidenceTextID = number }
        return number
    }

    /// The known statement of the text `bytes` (trimmed), added when the
    /// table has room; nil when it is not in the table and cannot be.
    mutating func knownStatement(_ bytes: UnsafeRawBufferPointer) -> KnownStatement? {
        let digest = Self.digest(bytes)
        if let place = knownDigests.find(digest) {
            let known = knownStatements[place]
            // A different text with the same digest is not in the table.
            return known.sql.utf8.withContiguousStorageIfAvailable({ Self.equal(bytes, UnsafeRawBufferPointer($0)) }) == true ? known : nil
        }
        guard knownStatements.count < Self.maximumKnownStatements, bytes.count <= Self.maximumStoredTextBytes else { return nil }
        let known = KnownStatement(sql: String(decoding: bytes, as: UTF8.self), number: knownStatements.count)
        knownDigests.add(digest, place: knownStatements.count)
        knownStatements.append(known)
        knownStates.append(KnownStatementState(hasParameterMark: known.hasParameterMark))
        return known
    }

    /// The known statement of `sql`, added when the table has room.
    mutating func knownStatement(_ sql: String) -> KnownStatement? {
        var sql = sql
        return sql.withUTF8 { knownStatement(UnsafeRawBufferPointer($0)) }
    }

    /// Whether a statement text has a `?` (as Foundation's `contains`
    /// finds one): over its bytes when they are ASCII.
    static func hasParameterMark(_ sql: String) -> Bool {
        var sql = sql
        let ascii: Bool? = sql.withUTF8 { bytes in
            SQLDebugLogBytes.isASCII(UnsafeRawBufferPointer(bytes)) ? bytes.contains(UInt8(ascii: "?")) : nil
        }
        return ascii ?? sql.contains("?")
    }

    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// A 64-bit digest of bytes, eight at a time (the table's key; equal
    /// digests are checked by comparing the texts).
    static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }
}
