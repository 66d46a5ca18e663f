import Foundation
import Insights
import Probes

/// Reads SQL debug logs line by line, in bounded memory, and analyzes them.
///
/// It recognizes Faultline's format (docs/sql-debug-log.md) and Core Data's
/// as Xcode's console prints it (`CoreData: sql: …`,
/// `CoreData: annotation: …`, `CoreData: details: SQLite bind[0] = …`) and
/// as the unified log does (`log stream`, `log show`, Console.app:
/// `MyApp: (CoreData) [com.apple.coredata:sql] sql: …`), wherever the
/// marker stands in the line: after timestamps and NSLog prefixes, with a
/// prefix cut short (`oreData: sql:`), with ANSI colour codes. Query plan rows may follow as the sqlite3 shell prints them
/// (`0|0|0|SCAN TABLE …`). Every other line is skipped, and counted.
///
/// Core Data's annotations go to the statement they follow, prefetches
/// nested in their fetch, one fetch counted once at any level, level 3's
/// SQL and values read (SQLLogAnalyzer+Fetches.swift); statements, plan
/// rows and fault lines printed over several lines are joined
/// (SQLLogAnalyzer+Continuation.swift, SQLLogAnalyzer+Plans.swift).
///
/// Memory is bounded whatever the input: at most `maximumShapes` statement
/// shapes, and per shape at most `maximumValueSets` distinct value hashes
/// kept to tell duplicates from similar statements (beyond that, new values
/// count as similar); lines longer than `maximumLineBytes` are cut; no text
/// is kept longer than `maximumStoredTextBytes` (a longer one is kept cut,
/// with its length and a digest). Each bound a log reaches is said in the
/// analysis (``SQLLogAnalysis/limitsReached``, SQLLogAnalyzer+Limits.swift).
///
/// Counts read from the log (rows) add up saturating at `Int.max`, times
/// at the largest finite `Double`; a time that is not a finite number
/// (`inf`, `nan`) is unknown, and counted (``SQLLogAnalysis/timesNotFinite``).
public struct SQLLogAnalyzer {
    public static let maximumShapes = 10_000
    public static let maximumValueSets = 4_096
    public static let maximumLineBytes = 1 << 20

    struct Shape {
        var summary: SQLLogAnalysis.ShapeSummary
        var valueHashes = Set<ValueHash>()
    }

    /// A hash of a statement's values (its bound ones, or its text's
    /// literals) as a set member: already a hash, so mixed with the set's
    /// seed (``KeyHash``) and not hashed again by SipHash.
    struct ValueHash: Hashable {
        let value: Int

        func hash(into hasher: inout Hasher) {
            hasher.combine(value)
        }

        func _rawHashValue(seed: Int) -> Int {
            KeyHash.mix(UInt64(bitPattern: Int64(value)), seed: seed)
        }
    }

    var analysis = SQLLogAnalysis()
    /// The bounds reached, and how often (SQLLogAnalyzer+Limits.swift).
    var limitsReached: [Limit: Int] = [:]
    /// Hashes of the statement texts checked for repetitions, at most
    /// ``maximumRepetitionTexts``.
    var repetitionTexts = Set<Int>()
    /// The statements table: shapes in the order first read, and where
    /// each shape (as kept) is.
    var shapeTable: [Shape] = []
    var shapeIndex: [String: Int] = [:]
    /// Statement texts read before (SQLLogAnalyzer+KnownStatements.swift),
    /// by the digest of their bytes.
    var knownStatements: [KnownStatement] = []
    var knownDigests = DigestTable(capacity: SQLLogAnalyzer.maximumKnownStatements)
    /// What was learned of each, by its number.
    var knownStates: [KnownStatementState] = []
    /// The numbers of counted statement texts in the evidence's repetition
    /// counts (SQLLogAnalyzer+KnownStatements.swift).
    var evidenceTextIDs: [String: Int] = [:]
    /// Call sites' files and purposes, kept once (LogTextTable.swift).
    var texts = LogTextTable()
    /// The last lazy load suffix read, and the text after its ` (`.
    var lastSuffix: LazyLoadSuffix?
    var lastSuffixBytes: [UInt8] = []
    private var faults: [String: SQLLogAnalysis.FaultSummary] = [:]
    private var relationshipFaults: [String: SQLLogAnalysis.FaultSummary] = [:]
    private var prefetches: [String: SQLLogAnalysis.FaultSummary] = [:]
    /// The entry of each table counted last.
    private var lastFault: LastFaultEntry?
    private var lastRelationshipFault: LastFaultEntry?
    private var lastPrefetch: LastFaultEntry?
    var formats = Set<SQLLogFormat>()
    /// The format of the last marked line, inserted in ``formats`` already.
    private var lastFormat: SQLLogFormat?
    var pending: PendingStatement?

    /// A statement read and not yet finished by its annotation.
    struct PendingStatement {
        /// Its shape; stale once lines were joined to it (``sql`` is
        /// normalized when it is finished, not once per line joined).
        var shape: String
        var sql: String
        var binds: [String]
        var line: Int
        var control: TransactionControl?
        /// Query plan rows printed with it (Faultline's `plan:` lines).
        var plan: [String] = []
        /// Its text as read before, while no line is joined to it.
        var known: KnownStatement?
        var shapeIsStale = false
    }

    /// How the insight rules run on the log (thresholds, accepted list).
    public var settings = InsightSettings()
    /// The name call sites of the log's own lines carry (the file's name).
    public var sourceName = "log"
    /// What the insight rules read, fed with the log's lines turned into
    /// the engine's events (SQLLogAnalyzer+Evidence.swift). Its statements
    /// are added up here, by place in the statements table
    /// (``statementAggregates``), and given to it for the rules.
    var evidence = InsightEvidence(aggregatingStatements: false)
    /// Statements finished but not yet added to the evidence: they wait
    /// for the operation annotation that names their call site, and for
    /// query plan rows Core Data prints after them.
    var recentStatements: [RecentStatement] = []
    /// Where the waiting statements start in ``recentStatements`` (those
    /// before were added to the evidence).
    var recentHead = 0
    /// The evidence's statements, in the order the evidence first had
    /// each, and where each shape's is, by place in the statements table
    /// (-1 while it has none).
    var statementAggregates: [StatementAggregate] = []
    var aggregateSlots: [Int] = []
    /// Core Data's fetch whose objects faults come from now, and the one
    /// just read, which a relationship fault may turn out to own.
    var currentFetch: (entity: String, site: CallSite, execution: UInt64, shape: String)?
    var candidateFetch: (entity: String, line: Int, isKeyLookup: Bool, shape: String)?
    /// The lines of Core Data's fetches that lazy loads were taken to come
    /// from, at most ``maximumFetchSites`` (SQLLogAnalyzer+Evidence.swift).
    var fetchSiteLines = Set<Int>()
    /// The site given last to a fetch beyond them, and its shape.
    var lastShapeSite: (shape: String, site: CallSite)?
    /// Core Data's fetches under way, innermost last, and the statement
    /// finished last (SQLLogAnalyzer+Fetches.swift).
    var openFetches: [OpenFetch] = []
    var lastFinished: FinishedStatement?
    var statementSerial = 0
    /// Level 3 values being read after their fetch's annotation.
    var pendingValues: PendingValues?
    /// A query plan row read and not yet noted: the next line may continue
    /// it (a row wrapped by a page or a terminal).
    /// `known` is where the row is in the plan rows' table, when it was
    /// found there by its bytes as it will be noted.
    var heldPlanRow: (row: String, line: Int, known: Int?)?
    var fetchExecutions: UInt64 = 0
    /// Core Data's last relationship fault of the current fetch's objects:
    /// faults of another entity after it are its destinations'.
    var lastRelationship: (keyPath: String, execution: UInt64)?
    /// Whether Faultline's statement figures (`rows:`, `scanned:`) were read.
    var sawStatementFigures = false
    /// Open transactions, innermost last. Logs of several connections
    /// interleave (Faultline's writer begins while a reader's transaction is
    /// open): a COMMIT ends the innermost, statements count to it.
    private var openTransactions: [SQLLogAnalysis.TransactionSummary] = []
    private var largestTransactions: [SQLLogAnalysis.TransactionSummary] = []
    private var fullScans = Set<String>()
    /// The distinct plan rows in the order first read, where each is (by
    /// its text, and by its digest for rows read over bytes).
    var planRowList: [SQLLogAnalysis.PlanRow] = []
    private var planRowIndex: [String: Int] = [:]
    private var planRowDigests = DigestTable(capacity: SQLLogAnalyzer.maximumPlanRows)
    var expectingPlan = false
    var timeline: [SQLLogAnalysis.TimelineBucket] = []
    private var linesPerBucket = 64
    public static let maximumBuckets = 128

    /// The timeline bucket of `line`, merging buckets pairwise when the log
    /// outgrows them.
    mutating func bucket(_ line: Int) -> Int {
        while (line - 1) / linesPerBucket >= Self.maximumBuckets {
            timeline = stride(from: 0, to: timeline.count, by: 2).map { index in
                var merged = timeline[index]
                if index + 1 < timeline.count {
                    merged.statements += timeline[index + 1].statements
                    merged.faults += timeline[index + 1].faults
                    merged.seconds += timeline[index + 1].seconds
                }
                return merged
            }
            linesPerBucket *= 2
        }
        let index = (line - 1) / linesPerBucket
        if timeline.count <= index { timeline.append(contentsOf: repeatElement(.init(), count: index + 1 - timeline.count)) }
        return index
    }

    public init() {}

    // MARK: Feeding

    /// Reads a whole stream of bytes (a file, standard input); `path` names
    /// it in errors.
    ///
    /// Lines are found with `memchr` in 1 MiB chunks, and a line that holds
    /// no log marker is counted without being decoded: the scan is over
    /// bytes, so skipped output costs little.
    public mutating func consume(_ handle: FileHandle, path: String) throws(LogFileError) {
        guard let first = try LogFile.read(handle, path: path) else { return flush() }
        if let encoding = Self.utf16(first) {
            // Some consoles save UTF-16: read it whole, as UTF-8.
            var whole = first
            while let chunk = try LogFile.read(handle, path: path) { whole.append(chunk) }
            if let text = String(data: whole, encoding: encoding) {
                analysis.encoding = "UTF-16"
                consume(chunk: Data(text.utf8))
                return flush()
            }
            consume(chunk: whole)
            return flush()
        }
        noteBinary(first)
        consume(chunk: first)
        while let chunk = try LogFile.read(handle, path: path) { consume(chunk: chunk) }
        flush()
    }

    /// The UTF-16 byte order of `data`, if it is UTF-16: a byte order mark,
    /// or, without one, a NUL in every other byte of its start (text in
    /// UTF-16 that is mostly ASCII).
    static func utf16(_ data: Data) -> String.Encoding? {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return .utf16 }
        let sample = Array(data.prefix(512))
        guard sample.count >= 8 else { return nil }
        var zeros = (even: 0, odd: 0)
        for (index, byte) in sample.enumerated() where byte == 0 {
            if index % 2 == 0 { zeros.even += 1 } else { zeros.odd += 1 }
        }
        let half = sample.count / 2
        if zeros.odd * 10 >= half * 8, zeros.even * 10 <= half { return .utf16LittleEndian }
        if zeros.even * 10 >= half * 8, zeros.odd * 10 <= half { return .utf16BigEndian }
        return nil
    }

    /// Notes a start of file that is not text (NUL bytes where UTF-16 would
    /// not put them): the analysis says so.
    private mutating func noteBinary(_ data: Data) {
        if data.prefix(4_096).contains(0) { analysis.encoding = "binary" }
    }

    /// Bytes of a line not yet ended by a newline.
    private var carry: [UInt8] = []
    /// Set after a line was cut: its rest is dropped up to the next newline.
    private var skippingRestOfLine = false

    /// Reads the next bytes of a stream. A line is read when its newline
    /// arrives; `flush()` reads a last line without one.
    public mutating func consume(chunk: Data) {
        // Lines are read in place; only a line that a chunk's end cuts is
        // copied (kept until its newline comes).
        var carry = self.carry
        self.carry = []
        chunk.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var consumed = 0
            if !carry.isEmpty {
                guard let newline = memchr(base, 0x0A, buffer.count) else {
                    carry.append(contentsOf: buffer)
                    return
                }
                let end = base.distance(to: UnsafeRawPointer(newline))
                carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<end]))
                if skippingRestOfLine {
                    skippingRestOfLine = false
                } else {
                    carry.withUnsafeBytes { consume(raw: $0) }
                }
                carry.removeAll(keepingCapacity: true)
                consumed = end + 1
            }
            while consumed < buffer.count, let newline = memchr(base + consumed, 0x0A, buffer.count - consumed) {
                let end = base.distance(to: UnsafeRawPointer(newline))
                if skippingRestOfLine {
                    skippingRestOfLine = false
                } else {
                    consume(raw: UnsafeRawBufferPointer(rebasing: buffer[consumed..<end]))
                }
                consumed = end + 1
            }
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[consumed...]))
        }
        if carry.count > Self.maximumLineBytes {
            if !skippingRestOfLine {
                carry.withUnsafeBytes { consume(raw: UnsafeRawBufferPointer(rebasing: $0.prefix(Self.maximumLineBytes))) }
                analysis.truncatedLines += 1
                note(.lineLength)
            }
            skippingRestOfLine = true
            carry.removeAll(keepingCapacity: true)
        }
        self.carry = carry
    }

    /// Reads the last line if it has no newline.
    public mutating func flush() {
        if !carry.isEmpty, !skippingRestOfLine { carry.withUnsafeBytes { consume(raw: $0) } }
        carry = []
        skippingRestOfLine = false
    }

    /// Whether bytes of a line wait for its newline (``flush()`` reads them).
    public var hasPartialLine: Bool { !carry.isEmpty && !skippingRestOfLine }

    /// Forgets a partial line: the file it came from was truncated or replaced.
    public mutating func dropPartialLine() {
        carry = []
        skippingRestOfLine = false
    }

    /// Reads one line (without its newline).
    public mutating func consume(line bytes: Data) {
        bytes.withUnsafeBytes { consume(raw: $0) }
    }

    private static let faultlineMarker = Array("faultline: ".utf8)
    /// `CoreData: `, and the same cut short to `oreData: ` or `reData: `.
    private static let coreDataMarker = Array("reData: ".utf8)
    /// The unified log's sender, where Xcode's console prints `CoreData: `
    /// (`log stream`, `log show`, Console.app: `MyApp: (CoreData)
    /// [com.apple.coredata:sql] sql: SELECT …`), with the subsystem and
    /// category in brackets when the line shows them.
    private static let unifiedLogSender = Array("(CoreData) ".utf8)
    private static let bracketEnd = Array("] ".utf8)

    private mutating func consume(raw bytes: UnsafeRawBufferPointer) {
        analysis.lines += 1
        let format: SQLLogFormat
        let restStart: Int
        if bytes.count >= 11, memcmp(bytes.baseAddress!, "faultline: ", 11) == 0 {
            // Faultline's own lines start with the marker: its first occurrence.
            (format, restStart) = (.faultline, 11)
        } else if let at = Self.find(Self.faultlineMarker, in: bytes) {
            (format, restStart) = (.faultline, at + Self.faultlineMarker.count)
        } else if let at = Self.find(Self.coreDataMarker, in: bytes) {
            (format, restStart) = (.coredata, at + Self.coreDataMarker.count)
        } else if let at = Self.find(Self.unifiedLogSender, in: bytes) {
            (format, restStart) = (.coredata, Self.afterSubsystem(bytes, at + Self.unifiedLogSender.count))
        } else {
            consumeUnmarked(bytes)
            return
        }
        sawMarker = true
        continuing = false
        if pendingValues != nil { endValues() }
        if heldPlanRow != nil { flushPlanRow() }
        analysis.logLines += 1
        if format != lastFormat {
            formats.insert(format)
            lastFormat = format
        }
        handle(bytes: UnsafeRawBufferPointer(rebasing: bytes[restStart...]), line: analysis.lines)
        wrapCheck(bytes.count)
    }

    /// The analyzer of a log read from `path` (its name in call sites of the log's lines).
    public init(sourceName: String, settings: InsightSettings = InsightSettings()) {
        self.sourceName = sourceName
        self.settings = settings
    }

    /// Past `[com.apple.coredata:sql] ` when the line has it at `start`.
    private static func afterSubsystem(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "["),
              let end = find(bracketEnd, in: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        else { return start }
        return start + end + bracketEnd.count
    }

    /// Notes whether the line just read is as long as the lines a
    /// terminal or a page wraps at: the next may continue it.
    mutating func wrapCheck(_ length: Int) {
        lastLineWrapped = length >= Self.wrapWidth
    }

    /// The shortest line that can have been wrapped (terminals wrap at 80,
    /// e-mails at 72, some pages at 64).
    static let wrapWidth = 60

    /// Whether a line with a `faultline: ` or `CoreData: ` prefix was read:
    /// from then on, lines without one are not read as log lines.
    private var sawMarker = false
    /// Whether the line before was a statement (or an annotation held for
    /// a line), which the next line may continue.
    var continuing = false
    /// Whether the line before was as long as a wrapped line
    /// (``wrapWidth`` bytes or more).
    private var lastLineWrapped = false
    /// Lines left to find the first plan row after an `EXPLAIN QUERY PLAN`;
    /// nil while rows are being read or none is expected.
    private var planWait: Int?

    private static let explainUpper = Array("QUERY PLAN".utf8)
    private static let explainLower = Array("query plan".utf8)
    /// A wrapped statement or annotation grows to this many bytes at most:
    /// memory stays bounded whatever follows a long line.
    static let maximumJoinedBytes = 65_536
    /// Lines after an `EXPLAIN QUERY PLAN` in which its first row may come.
    private static let planWindow = 40

    /// Whether a line mentions `QUERY PLAN` (a prompt, a fenced block), in
    /// upper or lower case.
    private static func mentionsQueryPlan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        find(explainUpper, in: bytes) != nil || find(explainLower, in: bytes) != nil
    }
    private static let logKeywords = ["sql: ", "annotation: ", "details: ", "plan: "]

    /// A line without a prefix: a plan row, a statement's wrapped
    /// continuation, a first line whose prefix the paste cut (`ata: sql: …`),
    /// a log line pasted without its prefix (when no prefixed line came
    /// before), or other output.
    private mutating func consumeUnmarked(_ bytes: UnsafeRawBufferPointer) {
        // Level 3 values after their fetch: counted, kept cut, not decoded beyond that.
        if pendingValues != nil { return consumeValuesLine(bytes) }
        // Most such lines are other output: decode only what may be a log line.
        let mayBeLog = expectingPlan || planWait != nil || analysis.logLines == 0 || !sawMarker
            || (continuing && (pending != nil || heldAnnotation != nil))
        guard mayBeLog else {
            if Self.mentionsQueryPlan(bytes) { planWait = Self.planWindow }
            releaseAnnotation()
            analysis.skippedLines += 1
            return
        }
        // A plan row (the lines after an EXPLAIN), read over its bytes when
        // they are ASCII without escape codes.
        var row: String?
        var known: Int?
        var scanned = false
        if expectingPlan || planWait != nil, Self.isPlainASCII(bytes) {
            scanned = true
            if case .row(let range) = Self.scanPlanRow(bytes) {
                let detail = UnsafeRawBufferPointer(rebasing: bytes[range])
                // Trimmed already; one with Faultline's mark is noted without it.
                let marked = detail.count >= 11 && memcmp(detail.baseAddress! + detail.count - 11, "[full scan]", 11) == 0
                known = marked ? nil : knownPlanRow(detail)
                row = known.map { planRowList[$0].row } ?? String(decoding: detail, as: UTF8.self)
            }
        }
        if row == nil, !scanned, expectingPlan || planWait != nil { row = Self.planRow(Self.decode(bytes)) }
        if let row {
            analysis.logLines += 1
            if heldPlanRow != nil { flushPlanRow() }
            // Shell output alone (no log line of another format before it).
            if formats.isEmpty { formats.insert(.sqlite3) }
            heldPlanRow = (row, analysis.lines, known)
            expectingPlan = true
            planWait = nil
            continuing = false
            return
        }
        let text = Self.decode(bytes)
        if let held = heldPlanRow {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if bytes.count < 4_096, Self.continuesPlanRow(held.row, with: trimmed), !joinedTooLong(held.row) {
                // A plan row wrapped by a page or a terminal: its index name, its condition.
                heldPlanRow!.row = held.row + " " + Self.trimmingSpaces(trimmed)
                heldPlanRow!.known = nil
                analysis.logLines += 1
                analysis.joinedLines += 1
                return
            }
            flushPlanRow()
        }
        if Self.mentionsQueryPlan(bytes) {
            planWait = Self.planWindow
        } else if let wait = planWait {
            planWait = wait > 1 ? wait - 1 : nil
        }
        expectingPlan = false
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        if analysis.logLines == 0, let rest = Self.cutPrefix(trimmed) {
            // The paste began inside the prefix: a damaged first line.
            analysis.recoveredLines += 1
            formats.insert(rest.format)
            analysis.logLines += 1
            continuing = false
            handle(rest.text, line: analysis.lines)
            wrapCheck(bytes.count)
            return
        }
        if !sawMarker, Self.logKeywords.contains(where: { trimmed.utf8.starts(with: $0.utf8) }) {
            formats.insert(.unprefixed)
            analysis.logLines += 1
            continuing = false
            handle(trimmed, line: analysis.lines)
            wrapCheck(bytes.count)
            return
        }
        if continuing, let held = heldAnnotation, !trimmed.isEmpty, bytes.count < 4_096, !joinedTooLong(held.text) {
            if Self.needsObject(held.text[...]), Self.isObjectURI(trimmed) {
                // A fault's object on the line after it: the annotation is whole now.
                heldAnnotation!.text += " " + Self.trimmingSpaces(trimmed)
                analysis.logLines += 1
                analysis.joinedLines += 1
                continuing = false
                releaseAnnotation()
                return
            }
            if lastLineWrapped, !Self.isComplete(held.text[...]), !Self.startsLikeALogLine(trimmed) {
                // An annotation wrapped by a terminal or an e-mail.
                heldAnnotation!.text += " " + trimmed
                analysis.logLines += 1
                analysis.joinedLines += 1
                lastLineWrapped = bytes.count >= Self.wrapWidth
                return
            }
        }
        if heldAnnotation != nil {
            // A line after an annotation that does not continue it.
            releaseAnnotation()
            continuing = false
        }
        if continuing, let sql = pending?.sql, !trimmed.isEmpty, bytes.count < 4_096, !Self.startsLikeALogLine(trimmed),
           lastLineWrapped || Self.continuesStatement(trimmed) || Self.isUnfinished(sql), !joinedTooLong(sql)
        {
            // A statement wrapped by a terminal, an email or a page, or
            // written over several lines (`FROM …`, `WHERE …` on lines of their own).
            pending!.sql += " " + trimmed
            pending!.known = nil
            pending!.shapeIsStale = true
            analysis.logLines += 1
            analysis.joinedLines += 1
            lastLineWrapped = bytes.count >= Self.wrapWidth
            return
        }
        continuing = false
        releaseAnnotation()
        analysis.skippedLines += 1
    }

    /// Whether a wrapped statement or annotation has grown to
    /// ``maximumJoinedBytes``: a line that would continue it is not joined
    /// (the limit noted).
    private mutating func joinedTooLong(_ text: String) -> Bool {
        guard text.utf8.count >= Self.maximumJoinedBytes else { return false }
        note(.joinedLength)
        return true
    }

    /// Whether an annotation ends as Core Data's and Faultline's end (a
    /// full stop, a time in seconds, a row count, a closing parenthesis):
    /// one that does not was cut by a wrap.
    static func isComplete(_ annotation: Substring) -> Bool {
        // Bytes from the end, spaces and carriage returns skipped.
        var bytes = annotation.utf8.reversed().drop { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }.makeIterator()
        guard let last = bytes.next() else { return true }
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        switch last {
        case UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "]"): return true
        case UInt8(ascii: "s"):
            // `0.0012s` (a time) or `rows`.
            guard let before = bytes.next() else { return false }
            return isDigit(before) || (before == UInt8(ascii: "w") && bytes.next() == UInt8(ascii: "o") && bytes.next() == UInt8(ascii: "r"))
        case UInt8(ascii: "w"): return bytes.next() == UInt8(ascii: "o") && bytes.next() == UInt8(ascii: "r")
        default: return isDigit(last)
        }
    }

    /// `ata: sql: …`, `Data: annotation: …`: a line that starts with the
    /// end of a `CoreData: ` or `faultline: ` prefix, what follows it.
    static func cutPrefix(_ line: Substring) -> (format: SQLLogFormat, text: Substring)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let head = line[..<colon]
        let rest = line[line.index(after: colon)...].drop { $0 == " " }
        guard !head.isEmpty, logKeywords.contains(where: { rest.utf8.starts(with: $0.utf8) }) else { return nil }
        if "CoreData".hasSuffix(head) { return (.coredata, rest) }
        if "faultline".hasSuffix(head) { return (.faultline, rest) }
        return nil
    }

    /// Whether a line looks like the start of a log line of its own (a
    /// timestamp, an NSLog or `log stream` header, a prompt, a keyword),
    /// which a wrapped statement's continuation does not.
    static func startsLikeALogLine(_ line: Substring) -> Bool {
        if let first = line.unicodeScalars.first, CharacterSet.decimalDigits.contains(first) { return true }
        for start in ["sqlite>", "...>", "20", "CoreData", "faultline", "```", "#", "//", "$ "] where line.hasPrefix(start) { return true }
        return line.contains(": sql: ") || line.contains(": annotation: ")
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return memchr(bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, 0x1B, bytes.count) == nil ? text : stripANSI(text)
    }

    /// The offset of `needle` in `bytes`, by `memmem`.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, bytes.count >= needle.count else { return nil }
        return needle.withUnsafeBytes { needleBytes in
            search(UnsafeRawBufferPointer(start: base, count: bytes.count), for: needleBytes)
        }
    }

    /// The offset of `needle` in `haystack`: `memchr` for its first byte,
    /// `memcmp` for the rest (`memmem` is a GNU extension).
    private static func search(_ haystack: UnsafeRawBufferPointer, for needle: UnsafeRawBufferPointer) -> Int? {
        guard let base = haystack.baseAddress, let first = needle.first, haystack.count >= needle.count else { return nil }
        var offset = 0
        let last = haystack.count - needle.count
        let second = needle.count > 1 ? needle[1] : 0
        while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
            let at = base.distance(to: UnsafeRawPointer(hit))
            // The second byte first: most hits of the first are no match.
            if needle.count == 1 || (haystack[at + 1] == second && memcmp(base + at, needle.baseAddress!, needle.count) == 0) { return at }
            offset = at + 1
        }
        return nil
    }

    /// The range of `needle` in `text`, searching its UTF-8 bytes (Foundation's
    /// `range(of:)` compares characters and costs several times more).
    static func find(_ needle: String, in text: Substring) -> Range<Substring.Index>? {
        var text = text
        return text.withUTF8 { bytes in
            var needle = needle
            return needle.withUTF8 { needleBytes -> Range<Int>? in
                search(UnsafeRawBufferPointer(bytes), for: UnsafeRawBufferPointer(needleBytes)).map { $0..<($0 + needleBytes.count) }
            }
        }.map { offsets in
            let start = text.utf8.index(text.startIndex, offsetBy: offsets.lowerBound)
            return start..<text.utf8.index(start, offsetBy: offsets.count)
        }
    }

    // MARK: Lines

    static func stripANSI(_ text: String) -> String {
        var result = ""
        var skipping = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                skipping = true
                continue
            }
            if skipping {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { skipping = false }
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// An annotation read but not yet acted on, and its line.
    var heldAnnotation: (text: String, line: Int)?

    /// Acts on the held annotation, if any.
    mutating func releaseAnnotation() {
        guard let held = heldAnnotation else { return }
        heldAnnotation = nil
        releasing = true
        annotation(held.text[...], line: held.line)
        releasing = false
    }

    /// Set while a held annotation is acted on: it is not held again.
    var releasing = false

    mutating func handle(_ rest: Substring, line: Int) {
        releaseAnnotation()
        if Self.starts(rest, with: "sql: ") {
            finishStatement(seconds: nil, rows: nil)
            commitCandidateFetch()
            pending = statement(Self.trimmingSpacesRange(rest.dropFirst(5)), line: line)
            expectingPlan = false
            continuing = true
            if let control = pending!.control { noteTransaction(control, line: line) }
        } else if Self.starts(rest, with: "details: ") {
            let detail = rest.dropFirst(9)
            if let bind = Self.find("bind[", in: detail), let equals = Self.find("] = ", in: detail[bind.upperBound...]) {
                noteBind(detail[equals.upperBound...])
            } else if let range = Self.find("bound intarray ", in: detail) {
                analysis.boundIntarrays += 1
                noteBind(detail[range.upperBound...])
            } else if Self.find("EXPLAIN QUERY PLAN", in: detail) != nil {
                expectingPlan = true
            } else if let row = Self.planRow(detail) {
                notePlanRow(row)
            }
        } else if Self.starts(rest, with: "plan: ") {
            notePlanRow(String(rest.dropFirst(6)))
        } else if Self.starts(rest, with: "annotation: ") {
            let text = rest.dropFirst(12)
            if Self.isComplete(text) || Self.find(", purpose: ", in: text) != nil || FetchUsing(text)?.values != nil {
                // Faultline's annotations end with their purpose: never cut;
                // level 3 values start on the line and go on below it.
                annotation(text, line: line)
            } else {
                // Held for a line: a wrapped annotation continues on the next.
                heldAnnotation = (String(text), line)
                continuing = true
            }
        }
    }

    /// A bound value of the statement under way, kept cut (``keep(_:)``),
    /// at most ``maximumBindsPerStatement`` of them.
    mutating func noteBind(_ value: Substring) {
        noteBind(String(value))
    }

    mutating func noteBind(_ value: String) {
        guard pending != nil else { return }
        guard pending!.binds.count < Self.maximumBindsPerStatement else { return note(.binds) }
        pending!.binds.append(keep(value))
    }

    mutating func annotation(_ text: Substring, line: Int) {
        var text = text
        let read = text.withUTF8 { buffer -> Bool in
            let bytes = UnsafeRawBufferPointer(buffer)
            guard Self.isPlainASCII(bytes) else { return false }
            annotation(ascii: LogBytes(bytes), 0..<bytes.count, line: line)
            return true
        }
        if !read { annotationByCharacters(text, line: line) }
    }

    /// ``annotation(_:line:)`` by characters.
    mutating func annotationByCharacters(_ text: Substring, line: Int) {
        if Self.starts(text, with: "Bound intarray ") || Self.starts(text, with: "bound intarray ") {
            // Core Data prints a bound key list as an annotation of its own.
            analysis.boundIntarrays += 1
            noteBind(text.dropFirst(15))
        } else if Self.starts(text, with: "sql execution time: ") {
            let seconds = seconds(in: text, line: line)
            let rows = Self.number(after: "rows: ", in: text)
            finishStatement(seconds: seconds, rows: rows, figures: StatementFigures(text))
        } else if Self.starts(text, with: "sql connection fetch time: ") {
            // Core Data: the statement just read is a fetch under way.
            let seconds = seconds(in: text, line: line)
            if pending != nil {
                finishStatement(seconds: seconds, rows: nil)
                if let last = lastFinished { openFetch(last) }
            }
        } else if Self.starts(text, with: "total count request execution time: ") {
            analysis.countRequests += 1
            finishStatement(seconds: seconds(in: text, line: line), rows: nil)
        } else if Self.starts(text, with: "total fetch execution time: ") {
            // Core Data: the fetch under way is done; its rows.
            closeFetch(rows: Self.number(after: " for ", in: text), line: line)
        } else if let fetch = FetchUsing(text) {
            // Levels 2-3: `fetch using <statement> … returned N rows`.
            noteFetchUsing(fetch, line: line)
        } else if let range = Self.find("fault fulfilled from ", in: text) {
            let rest = text[range.upperBound...]
            // The object's URI, before what a lazy load adds to the line.
            let object = Self.find(" (", in: rest).map { rest[..<$0.lowerBound] } ?? rest
            let entity = Self.entity(in: object)
            if entity == nil, !releasing, Self.find("x-coredata:", in: rest) == nil {
                // Held for a line: the object's URI may follow on the next.
                heldAnnotation = (String(text), line)
                continuing = true
                return
            }
            finishStatement(seconds: nil, rows: nil)
            closeFaultFetch()
            let source = Self.starts(rest, with: "database") ? "database" : (Self.starts(rest, with: "context") ? "context" : "row cache")
            note(.faults, entity: entity ?? SQLLogAnalysis.unknownEntity, source: source, line: line)
            noteFault(text, object: object, source: source, line: line)
            let index = bucket(line)
            timeline[index].faults += 1
        } else if let range = Self.find("relationship fault \"", in: text) {
            finishStatement(seconds: nil, rows: nil)
            closeFaultFetch()
            let relationship = text[range.upperBound...].prefix { $0 != "\"" }
            // The database unless the line says only the row cache served it.
            let fromRowCache = Self.find("from database", in: text) == nil && Self.find("from row cache", in: text) != nil
            let source = fromRowCache ? "row cache" : "database"
            let head = Self.find(" fulfilled ", in: text).map { text[..<$0.lowerBound] } ?? text
            let entity = Self.entity(in: head) ?? SQLLogAnalysis.unknownEntity
            note(.relationshipFaults, entity: "\(entity).\(relationship)", source: source, line: line)
            noteRelationshipFault(text, entity: entity, relationship: String(relationship), fromDatabase: !fromRowCache, line: line)
        } else if let range = Self.find("Prefetching with key '", in: text) {
            let key = text[range.upperBound...].prefix { $0 != "'" }
            note(.prefetches, entity: String(key), source: "prefetch", line: line)
        } else {
            noteOperation(text, line: line)
        }
    }

    /// Whether `text` starts with `prefix`, comparing bytes in place.
    @inline(__always)
    static func starts(_ text: Substring, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        if let result = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.count >= count && memcmp(bytes.baseAddress!, prefix.utf8Start, count) == 0
        }) {
            return result
        }
        return text.utf8.starts(with: UnsafeBufferPointer(start: prefix.utf8Start, count: count))
    }

    /// Whether a statement is a SELECT (any case), by its first bytes.
    static func isSelect(_ sql: String) -> Bool {
        var bytes = sql.utf8.makeIterator()
        for expected in "select".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        return true
    }

    /// Adds the statement under way, with its time and rows when its
    /// annotation gives them.
    mutating func finishStatement(seconds: Double?, rows: Int?, figures: StatementFigures? = nil) {
        // Moved out, not copied.
        guard var statement = pending.take() else { return }
        if statement.known == nil {
            // Lines joined to it, or a text too long or too late for the table.
            if let known = knownStatement(statement.sql), known.control == statement.control { statement.known = known }
            if statement.shapeIsStale { statement.shape = statement.known?.shape ?? SQLShape.normalize(statement.sql) }
        }
        // The shape as kept: cut when long, its digest keeping it apart.
        let key: String
        let index: Int?
        if let known = statement.known {
            if known.shapeCut { note(.storedText) }
            key = known.keptShape
            if knownStates[known.number].shapeIndex == nil { knownStates[known.number].shapeIndex = listShape(key, line: statement.line) }
            index = knownStates[known.number].shapeIndex
        } else {
            key = keep(statement.shape)
            index = listShape(key, line: statement.line)
        }
        // The insight rules see the listed shapes only: their memory is bounded too.
        // The bound values, hashed once: for the values table below and the evidence's repetitions.
        let values = statement.binds.isEmpty ? nil : ArgumentList(statement.binds)
        let read = noteStatement(statement, values: values, shape: key, seconds: seconds, rows: rows, figures: figures, shapeIndex: index)
        statementSerial += 1
        let isSelect = statement.known?.isSelect ?? (statement.control == nil && Self.isSelect(statement.shape))
        lastFinished = FinishedStatement(
            shape: key, shapeIndex: index, serial: statementSerial, line: statement.line, isSelect: isSelect, entity: read.entity, isKeyLookup: read.isKeyLookup)
        // A save's statements end any fetch under way (none runs inside one).
        if !isSelect, !openFetches.isEmpty { openFetches.removeAll() }
        if let index {
            // The values: the bound ones, or the statement's literals.
            let hash: ValueHash
            if statement.binds.isEmpty, let known = statement.known {
                hash = ValueHash(value: known.hashWithoutBinds)
            } else if let values {
                // Hashed as the evidence hashes lists of values (no SipHash).
                hash = ValueHash(value: Int(truncatingIfNeeded: values.hash))
            } else {
                var hasher = Hasher()
                hasher.combine(statement.binds)
                hasher.combine(statement.sql)
                hash = ValueHash(value: hasher.finalize())
            }
            shapeTable[index].summary.count += 1
            shapeTable[index].summary.totalSeconds = add(shapeTable[index].summary.totalSeconds, seconds ?? 0)
            shapeTable[index].summary.maxSeconds = max(shapeTable[index].summary.maxSeconds, seconds ?? 0)
            shapeTable[index].summary.rows.addSaturated(rows ?? 0)
            if shapeTable[index].valueHashes.contains(hash) {
                shapeTable[index].summary.duplicates += 1
            } else if shapeTable[index].valueHashes.count < Self.maximumValueSets {
                shapeTable[index].valueHashes.insert(hash)
            } else {
                note(.valueSets)
            }
        }
        if !openTransactions.isEmpty, statement.control == nil {
            openTransactions[openTransactions.count - 1].statements += 1
            analysis.statementsInTransactions += 1
        }
        let bucket = bucket(statement.line)
        timeline[bucket].statements += 1
        timeline[bucket].seconds = add(timeline[bucket].seconds, seconds ?? 0)
    }

    /// Where the shape `key` is in the statements table, listed now if the
    /// table has room; nil (the limit noted) when it is full.
    private mutating func listShape(_ key: String, line: Int) -> Int? {
        if let index = shapeIndex[key] { return index }
        guard shapeTable.count < Self.maximumShapes else {
            note(.shapes)
            return nil
        }
        shapeTable.append(Shape(summary: .init(shape: key, count: 0, duplicates: 0, totalSeconds: 0, maxSeconds: 0, rows: 0, firstLine: line)))
        aggregateSlots.append(-1)
        shapeIndex[key] = shapeTable.count - 1
        return shapeTable.count - 1
    }

    /// The statement of the text `text` (its bytes trimmed) read at `line`.
    mutating func statement(_ text: Substring, line: Int) -> PendingStatement {
        var text = text
        if let known = text.withUTF8({ knownStatement(UnsafeRawBufferPointer($0)) }) { return Self.pendingStatement(known, line: line) }
        let sql = String(text)
        return PendingStatement(shape: SQLShape.normalize(sql), sql: sql, binds: [], line: line, control: TransactionControl(sql))
    }

    /// A statement's time that is no finite number: counted, taken as unknown.
    mutating func noteTimeNotFinite(line: Int) {
        analysis.timesNotFinite += 1
        if analysis.firstTimeNotFiniteLine == nil { analysis.firstTimeNotFiniteLine = line }
    }

    /// BEGIN, COMMIT (or END), ROLLBACK: read once per statement; not
    /// counted among a transaction's statements.
    enum TransactionControl {
        case begin, commit, rollback

        init?(_ sql: String) {
            let upper = sql.prefix(8).uppercased()
            if upper.hasPrefix("BEGIN") {
                self = .begin
            } else if upper.hasPrefix("COMMIT") || upper.hasPrefix("END") {
                self = .commit
            } else if upper.hasPrefix("ROLLBACK") {
                self = .rollback
            } else {
                return nil
            }
        }
    }

    mutating func noteTransaction(_ control: TransactionControl, line: Int) {
        switch control {
        case .begin:
            if openTransactions.count == Self.maximumOpenTransactions {  // bounded
                closeTransaction("unfinished")
                note(.openTransactions)
            }
            openTransactions.append(.init(firstLine: line, statements: 0, outcome: ""))
            analysis.transactions += 1
        case .commit: closeTransaction("commit")
        case .rollback: closeTransaction("rollback")
        }
    }

    /// Ends the innermost open transaction, keeping it if it is among the
    /// ten largest.
    private mutating func closeTransaction(_ outcome: String) {
        guard var transaction = openTransactions.popLast() else { return }
        transaction.outcome = outcome
        largestTransactions.append(transaction)
        if largestTransactions.count > 20 { trimLargestTransactions() }
    }

    private mutating func trimLargestTransactions() {
        largestTransactions.sort { $0.statements != $1.statements ? $0.statements > $1.statements : $0.firstLine < $1.firstLine }
        largestTransactions.removeLast(max(0, largestTransactions.count - 10))
    }

    mutating func notePlanRow(_ row: String, line: Int? = nil) {
        let whole = Self.trimmedPlanRow(row)
        let row = keep(whole)
        notePlan(row)
        var copy = row
        let digest = copy.withUTF8 { Self.digest(UnsafeRawBufferPointer($0)) }
        if let index = planRowDigests.find(digest).flatMap({ planRowList[$0].row == row ? $0 : nil }) ?? planRowIndex[row] {
            planRowList[index].count += 1
        } else if planRowList.count < Self.maximumPlanRows {
            // Whether it scans a whole table: once per distinct row.
            let fullScan = QueryPlan.isFullScan(whole)
            planRowIndex[row] = planRowList.count
            if planRowDigests.find(digest) == nil { planRowDigests.add(digest, place: planRowList.count) }
            planRowList.append(.init(row: row, count: 1, fullScan: fullScan, firstLine: line ?? analysis.lines))
            if fullScan { fullScans.insert(row) }
        } else {
            note(.planRows)
        }
    }

    /// ``notePlanRow(_:line:)`` of an ASCII row (`bytes[range]`): a row
    /// read before is found by its bytes' digest, no `String` made.
    mutating func notePlanRow(ascii bytes: LogBytes, _ range: Range<Int>, line: Int? = nil) {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if end - start >= 11, bytes.equals((end - 11)..<end, "[full scan]") {
            end -= 11
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        }
        if let index = knownPlanRow(UnsafeRawBufferPointer(rebasing: bytes.bytes[start..<end])) { return noteKnownPlanRow(index) }
        notePlanRow(bytes.string(range), line: line)
    }

    /// Where a plan row as noted (trimmed, unmarked, at most
    /// ``maximumStoredTextBytes`` bytes) is in the table, found by the
    /// digest of its bytes and compared; nil when it is not there yet.
    func knownPlanRow(_ row: UnsafeRawBufferPointer) -> Int? {
        guard row.count <= Self.maximumStoredTextBytes, let index = planRowDigests.find(Self.digest(row)) else { return nil }
        let same = planRowList[index].row.utf8.withContiguousStorageIfAvailable {
            $0.count == row.count && (row.isEmpty || memcmp($0.baseAddress!, row.baseAddress!, row.count) == 0)
        }
        return same == true ? index : nil
    }

    /// Notes the row at `index` in the table again (``notePlanRow(_:line:)``
    /// of a row read before).
    mutating func noteKnownPlanRow(_ index: Int) {
        notePlan(planRowList[index].row)
        planRowList[index].count += 1
    }

    /// A plan row without the spaces around it and Faultline's own
    /// `[full scan]` mark (the analysis marks full scans itself): over bytes
    /// for an ASCII row (spaces and tabs, the ASCII members of
    /// `CharacterSet.whitespaces`), else with Foundation.
    static func trimmedPlanRow(_ row: String) -> String {
        var copy = row
        let ascii = copy.withUTF8 { buffer -> Range<Int>? in
            let bytes = LogBytes(UnsafeRawBufferPointer(buffer))
            guard isASCII(bytes.bytes) else { return nil }
            let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
            var start = 0, end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            if end - start >= 11, bytes.equals((end - 11)..<end, "[full scan]") {
                end -= 11
                while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            }
            return start..<end
        }
        guard let ascii else {
            var trimmed = row.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("[full scan]") { trimmed = trimmed.dropLast(11).trimmingCharacters(in: .whitespaces) }
            return trimmed
        }
        if ascii == 0..<row.utf8.count { return row }
        let utf8 = row.utf8
        return String(utf8[utf8.index(utf8.startIndex, offsetBy: ascii.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: ascii.upperBound)])!
    }

    /// The tables of faults by entity and source.
    enum FaultTable {
        case faults, relationshipFaults, prefetches
    }

    /// Counts a fault (relationship fault, prefetch) of `entity` from
    /// `source`; names kept cut, at most ``maximumShapes`` per table.
    mutating func note(_ table: FaultTable, entity: String, source: String, line: Int) {
        let (entity, source) = (keep(entity), keep(source))
        let counted = switch table {
        case .faults: Self.note(&faults, entity: entity, source: source, line: line, last: &lastFault, kind: table)
        case .relationshipFaults: Self.note(&relationshipFaults, entity: entity, source: source, line: line, last: &lastRelationshipFault, kind: table)
        case .prefetches: Self.note(&prefetches, entity: entity, source: source, line: line, last: &lastPrefetch, kind: table)
        }
        if !counted { note(.faultEntries) }
    }

    /// Counts one in `table`; false when the table is full. Faults come
    /// in runs of one entity and source: the entry counted last is found
    /// again without building and hashing its key.
    private static func note(
        _ table: inout [String: SQLLogAnalysis.FaultSummary], entity: String, source: String, line: Int, last: inout LastFaultEntry?,
        kind: FaultTable
    ) -> Bool {
        if let entry = last, entry.kind == kind, entry.entity == entity, entry.source == source {
            table.values[entry.index].count += 1
            return true
        }
        let key = "\(entity)\u{0}\(source)"
        if table[key] == nil {
            guard table.count < Self.maximumShapes else { return false }
            table[key] = .init(entity: entity, source: source, count: 0, firstLine: line)
        }
        let index = table.index(forKey: key)!
        table.values[index].count += 1
        // Valid until the next insertion, which sets it again.
        last = LastFaultEntry(kind: kind, entity: entity, source: source, index: index)
        return true
    }

    /// The entry of a fault table counted last.
    struct LastFaultEntry {
        var kind: FaultTable
        var entity: String
        var source: String
        var index: Dictionary<String, SQLLogAnalysis.FaultSummary>.Index
    }

    /// The text without leading and trailing spaces, tabs and carriage
    /// returns, as a part of it (no copy).
    static func trimmingSpacesRange(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return text[start..<end]
    }

    /// The text without leading and trailing spaces and tabs.
    static func trimmingSpaces(_ text: Substring) -> String {
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }

    /// `Entity` from `Entity/p42` or `x-coredata://…/Entity/p42`: the name
    /// before the last `/p`, searched over UTF-8 bytes.
    static func entity(in text: Substring) -> String? {
        var text = text
        return text.withUTF8 { entity(in: UnsafeRawBufferPointer($0)) }
    }

    /// ``entity(in:)`` of UTF-8 bytes.
    static func entity(in bytes: UnsafeRawBufferPointer) -> String? {
        var slash = bytes.count - 2
        while slash > 0, !(bytes[slash] == UInt8(ascii: "/") && bytes[slash + 1] == UInt8(ascii: "p")) { slash -= 1 }
        guard slash > 0 else { return nil }
        var start = slash
        // ASCII letters, digits and _, and any non-ASCII byte (names in other scripts).
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
        return start == slash ? nil : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<slash]), as: UTF8.self)
    }

    /// The ASCII digits right after `marker`.
    static func number(after marker: String, in text: Substring) -> Int? {
        guard let range = find(marker, in: text) else { return nil }
        let digits = text.utf8[range.upperBound...].prefix { (0x30...0x39).contains($0) }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    // MARK: Result

    /// The analysis of everything read so far.
    public mutating func finish() -> SQLLogAnalysis {
        endValues()
        flushPlanRow()
        releaseAnnotation()
        finishStatement(seconds: nil, rows: nil)
        commitCandidateFetch()
        while !openTransactions.isEmpty { closeTransaction("open") }
        trimLargestTransactions()
        var result = analysis
        result.largestTransactions = largestTransactions
        result.formats = formats.sorted().map(\.rawValue)
        result.statements = shapeTable.map(\.summary)
            .sorted { $0.totalSeconds != $1.totalSeconds ? $0.totalSeconds > $1.totalSeconds : $0.count > $1.count }
        func sorted(_ table: [String: SQLLogAnalysis.FaultSummary]) -> [SQLLogAnalysis.FaultSummary] {
            table.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.entity < $1.entity }
        }
        result.faults = sorted(faults)
        result.relationshipFaults = sorted(relationshipFaults)
        result.prefetches = sorted(prefetches)
        result.fullScans = fullScans.sorted()
        result.planRows = planRowList.sorted { $0.firstLine != $1.firstLine ? $0.firstLine < $1.firstLine : $0.row < $1.row }
        result.insights = insights()
        result.timeline = timeline
        result.linesPerBucket = linesPerBucket
        result.limitsReached = limitDescriptions
        return result
    }
}
