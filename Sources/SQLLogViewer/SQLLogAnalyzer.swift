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
/// prefix cut short (`oreData: sql:`), with ANSI colour codes. Query plan
/// rows may follow as the sqlite3 shell prints them (`0|0|0|SCAN TABLE …`).
/// Every other line is skipped, and counted.
///
/// Each line is tokenized once, by the log's one grammar in Probes
/// (`SQLDebugLogLine`, the grammar `SQLDebugLogFormat` writes with); the
/// analyzer acts on the typed line (SQLLogAnalyzer+Lines.swift). Core
/// Data's annotations go to the statement they follow, prefetches nested
/// in their fetch, one fetch counted once at any level, level 3's SQL and
/// values read (SQLLogAnalyzer+Fetches.swift); statements, plan rows and
/// fault lines printed over several lines are joined
/// (SQLLogAnalyzer+Lines.swift, SQLLogAnalyzer+Plans.swift).
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
        /// The hashes of the value sets shown (``SQLLogAnalysis/ShapeSummary/values``), in order.
        var shownValueHashes: [ValueHash] = []

        /// Counts an execution of `seconds` (the shape's time now
        /// `totalSeconds`) and `rows`, with values hashed `values`: a
        /// duplicate when they were seen before; false when they are new
        /// and the shape holds ``maximumValueSets`` already (not kept).
        mutating func count(seconds: Double, totalSeconds: Double, rows: Int, values: ValueHash) -> Bool {
            summary.count += 1
            summary.totalSeconds = totalSeconds
            summary.maxSeconds = max(summary.maxSeconds, seconds)
            summary.rows.addSaturated(rows)
            if valueHashes.contains(values) {
                summary.duplicates += 1
            } else if valueHashes.count < SQLLogAnalyzer.maximumValueSets {
                valueHashes.insert(values)
            } else {
                return false
            }
            return true
        }
    }

    /// Distinct shapes beyond the statements table counted apart (by a
    /// hash of each), so that the headline counts every shape; beyond
    /// them, the count of shapes is a lower bound (the limit said).
    public static let maximumShapesCountedApart = 100_000

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
    /// The format of the last marked or unprefixed line, inserted in
    /// ``formats`` already.
    var lastFormat: SQLLogFormat?
    var pending: PendingStatement?

    /// A statement read and not yet finished by its annotation.
    struct PendingStatement {
        /// Its own text and shape, when it has no known text (``known``):
        /// a known text's are not copied, and a statement of one holds no
        /// text of its own to destroy.
        private var own: OwnText?
        /// Its text's bytes once lines were joined to it (it has no known
        /// text then, nor a shape until ``normalizeOwnText()``): joined as
        /// bytes, and found among the known texts by them.
        private(set) var joined: [UInt8]?
        var binds: [String] = []
        var line: Int
        var control: TransactionControl?
        /// Query plan rows printed with it (Faultline's `plan:` lines).
        var plan: [String] = []
        /// Its text as read before, while no line is joined to it.
        var known: KnownStatement?

        /// A statement's own text and shape; never changed once made (a
        /// copy of the analyzer shares it).
        final class OwnText {
            let shape: String
            let sql: String

            init(shape: String, sql: String) {
                self.shape = shape
                self.sql = sql
            }
        }

        /// A statement of its own text.
        init(shape: String, sql: String, line: Int, control: TransactionControl?) {
            own = OwnText(shape: shape, sql: sql)
            self.line = line
            self.control = control
        }

        /// A statement of a known text.
        init(_ known: KnownStatement, line: Int) {
            self.line = line
            control = known.control
            self.known = known
        }

        /// Its shape; none while lines joined to it wait (it is made when
        /// the statement is finished, not once per line joined:
        /// ``normalizeOwnText()``).
        var shape: String { known?.shape ?? own!.shape }

        /// Its text.
        var sql: String {
            if let known { return known.sql }
            if let own { return own.sql }
            return String(decoding: joined!, as: UTF8.self)
        }

        /// Calls `body` with its text's bytes.
        func withText<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            if let joined { return joined.withUnsafeBytes(body) }
            var sql = self.sql
            return sql.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }

        /// The length of its text in bytes.
        var length: Int { joined?.count ?? sql.utf8.count }

        /// Joins a line's text to it after a space: it no longer has a
        /// known text, and its shape is stale.
        mutating func join(_ piece: UnsafeRawBufferPointer) {
            if joined == nil {
                joined = Array(sql.utf8)
                known = nil
                own = nil
            }
            joined!.append(0x20)
            joined!.append(contentsOf: piece)
        }

        /// Its joined text made its own, with its shape.
        mutating func normalizeOwnText() {
            guard joined != nil else { return }
            let sql = self.sql
            own = OwnText(shape: SQLShape.normalize(sql), sql: sql)
            joined = nil
        }

        /// Its joined text found known: it is that text.
        mutating func becomeKnown(_ known: KnownStatement) {
            self.known = known
            joined = nil
            own = nil
        }
    }

    /// How the insight rules run on the log (thresholds, accepted list).
    public var settings = InsightSettings()
    /// Entities by table, as the model names them (`ZPOST`: `Post`; from
    /// `perf-run log --model`): a Core Data log names tables, and insights
    /// name entities. Without it, the names the log itself shows (objects'
    /// URIs, `on entity '…'`) name their tables; a table never named so
    /// keeps its own name.
    public var entityNames: [String: String] = [:]
    /// The tables of entities the log named (``learnEntityName(_:)``).
    var learnedEntityNames: [String: String] = [:]
    /// The entity learned last (learning it again changes nothing).
    var lastLearnedEntity: String?
    /// The last relationship a fault's line named without its destination,
    /// and the destination made for it (`(relationship)`).
    var lastUnnamedDestination: (relationship: String, destination: String)?
    /// The last relationship fault's entity and relationship, and its name
    /// as counted (`Entity.relationship`).
    var lastRelationshipName: (entity: String, relationship: String, name: String)?
    /// The name call sites of the log's own lines carry (the file's name).
    public var sourceName = "log" {
        didSet { evidence.logName = sourceName }
    }
    /// What the insight rules read, fed with the log's lines turned into
    /// the engine's events (SQLLogAnalyzer+Evidence.swift). Its statements
    /// are added up here, by place in the statements table
    /// (``statementAggregates``), and given to it for the rules.
    var evidence: InsightEvidence = {
        var evidence = InsightEvidence(aggregatingStatements: false)
        evidence.logName = "log"
        return evidence
    }()
    /// Whether the log marks a run's iterations (SQLLogAnalyzer+Iterations.swift),
    /// the iteration under way, and the scenarios judged so far.
    var marksIterations = false
    var currentIteration: (scenario: String, number: Int)?
    var judgedScenarios: [SQLLogAnalysis.JudgedScenario] = []
    /// The intentions the last judgement found no insight for, and those of
    /// each scenario judged.
    var lastUnmatchedIntentions: [String] = []
    var unmatchedIntentionsByScenario: [String: [String]] = [:]
    /// Statements finished but not yet added to the evidence, at most
    /// ``maximumRecentStatements``: they wait for the operation annotation
    /// that names their call site, and for query plan rows Core Data
    /// prints after them.
    var recentStatements = RingQueue<RecentStatement>(capacity: SQLLogAnalyzer.maximumRecentStatements + 1)
    /// The details of the waiting statements that have any, in order.
    var recentDetails = RingQueue<RecentDetails>(capacity: SQLLogAnalyzer.maximumRecentStatements + 1)
    /// The evidence's statements, in the order the evidence first had
    /// each, and where each shape's is, by place in the statements table
    /// (-1 while it has none).
    var statementAggregates: [StatementAggregate] = []
    var aggregateSlots: [Int] = []
    /// Where the evidence counts the executions of each shape of the
    /// statements table at the log's own lines (a statement whose
    /// operation names no call site), by place in the table (-1 until the
    /// evidence has counted one: ``InsightEvidence/siteSlot(shape:site:)``).
    var logSiteSlots: [Int] = []
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
    /// The statement whose `fetch using … returned N rows` line was read
    /// last (a fetch prints one).
    var fetchUsingSerial: Int?
    /// Every statement read, and hashes of the shapes read beyond the
    /// statements table (at most ``maximumShapesCountedApart``).
    var statementsRead = 0
    var shapesNotListed = Set<Int>()
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
    /// Its destinations' table is the one its SELECT read (nil when not known).
    var lastRelationship: (keyPath: String, execution: UInt64, destinationTable: String?)?
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

    /// The analyzer of a log read from `path` (its name in call sites of the log's lines).
    public init(sourceName: String, settings: InsightSettings = InsightSettings()) {
        self.sourceName = sourceName
        self.settings = settings
        evidence.logName = sourceName
    }

    /// Whether a line with a `faultline: ` or `CoreData: ` prefix was read:
    /// from then on, lines without one are not read as log lines.
    var sawMarker = false
    /// Whether the line before was a statement (or an annotation held for
    /// a line), which the next line may continue.
    var continuing = false
    /// Whether the line before was as long as a wrapped line
    /// (``wrapWidth`` bytes or more).
    var lastLineWrapped = false
    /// Lines left to find the first plan row after an `EXPLAIN QUERY PLAN`;
    /// nil while rows are being read or none is expected.
    var planWait: Int?
    /// An annotation read but not yet acted on (it may go on on the next
    /// line), and its line.
    var heldAnnotation: (text: String, line: Int)?
    /// Set while a held annotation is acted on: it is not held again.
    var releasing = false

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
            if let known = statement.withText({ knownStatement($0) }), known.control == statement.control {
                statement.becomeKnown(known)
            } else {
                statement.normalizeOwnText()
            }
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
        // Level 1 shows a digest of the values instead: it stands for them.
        let values = statement.binds.isEmpty
            ? figures?.valuesDigest.map { ArgumentList(["values #\($0)"]) } : ArgumentList(statement.binds)
        let read = noteStatement(statement, values: values, shape: key, seconds: seconds, rows: rows, figures: figures, shapeIndex: index)
        statementSerial += 1
        let isSelect = statement.known?.isSelect ?? (statement.control == nil && Self.isSelect(statement.shape))
        let finished = FinishedStatement(
            shape: key, shapeIndex: index, serial: statementSerial, line: statement.line, isSelect: isSelect, entity: read.entity, isKeyLookup: read.isKeyLookup)
        // In place: assigning the optional destroyed the last one through its metadata.
        if case .none = lastFinished { lastFinished = finished } else { lastFinished!.replace(with: finished) }
        // A save's statements end any fetch under way (none runs inside one).
        if !isSelect, !openFetches.isEmpty { openFetches.removeAll() }
        if let index {
            // The values: the bound ones, or the statement's literals.
            let hash: ValueHash
            if statement.binds.isEmpty, figures?.valuesDigest == nil, let known = statement.known {
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
            let totalSeconds = add(shapeTable[index].summary.totalSeconds, seconds ?? 0)
            if !shapeTable[index].count(seconds: seconds ?? 0, totalSeconds: totalSeconds, rows: rows ?? 0, values: hash) { note(.valueSets) }
            if !statement.binds.isEmpty { noteBoundValues(statement.binds, hash: hash, shape: index, line: statement.line) }
        } else {
            noteShapeNotListed(key)
        }
        statementsRead += 1
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
        logSiteSlots.append(-1)
        shapeIndex[key] = shapeTable.count - 1
        return shapeTable.count - 1
    }

    /// Counts the shape `key` of a statement beyond the statements table
    /// among the shapes read (``SQLLogAnalysis/totalShapes``).
    private mutating func noteShapeNotListed(_ key: String) {
        let hash = key.hashValue
        guard shapesNotListed.count < Self.maximumShapesCountedApart || shapesNotListed.contains(hash) else { return note(.shapesCounted) }
        shapesNotListed.insert(hash)
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

    /// Notes a plan row of `text` (a `plan:` line's, or a `details:`
    /// line's): one read before is found by its bytes' digest, no `String` made.
    mutating func notePlanRow(_ text: SQLDebugLogBytes, _ row: SQLDebugLogPlanRow) {
        if let index = knownPlanRow(text.slice(row.row)) { return noteKnownPlanRow(index) }
        notePlanRow(kept: text.string(row.row))
    }

    /// Notes a plan row as it is kept (trimmed, without the `[full scan]`
    /// mark: ``SQLDebugLogPlanRow/kept(_:)``), first read at `line` (the
    /// line read last by default).
    mutating func notePlanRow(kept whole: String, line: Int? = nil) {
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

    /// Where a plan row as noted (trimmed, unmarked, at most
    /// ``maximumStoredTextBytes`` bytes) is in the table, found by the
    /// digest of its bytes and compared; nil when it is not there yet.
    /// (Mutating though it changes nothing: a method of the analyzer's
    /// value called while it is changed copied all of it.)
    mutating func knownPlanRow(_ row: UnsafeRawBufferPointer) -> Int? {
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
            table.values.sorted { ($1.count, $0.entity, $0.source) < ($0.count, $1.entity, $1.source) }
        }
        result.faults = sorted(faults)
        result.relationshipFaults = sorted(relationshipFaults)
        result.prefetches = sorted(prefetches)
        result.fullScans = fullScans.sorted()
        result.planRows = planRowList.sorted { $0.firstLine != $1.firstLine ? $0.firstLine < $1.firstLine : $0.row < $1.row }
        if marksIterations {
            // Each scenario's judged iteration; what follows the last one is not judged.
            result.scenarios = judgedScenarios
            result.insights = judgedScenarios.flatMap(\.insights)
            let unmatched = judgedScenarios.flatMap { unmatchedIntentionsByScenario[$0.name] ?? [] }
            result.unmatchedIntentions = unmatched.isEmpty ? nil : unmatched
        } else {
            result.insights = insights()
            result.unmatchedIntentions = lastUnmatchedIntentions.isEmpty ? nil : lastUnmatchedIntentions
        }
        result.timeline = timeline
        result.linesPerBucket = linesPerBucket
        result.totalStatements = statementsRead
        result.totalShapes = shapeTable.count + shapesNotListed.count
        result.limitsReached = limitDescriptions
        return result
    }
}
