import Foundation
import Probes

/// The log lines most logs are made of, read over their bytes: statements,
/// bound values, plan rows and values (`details:`), statement times, faults,
/// and Faultline's fetch and count annotations. A line is read so when its
/// text after the marker is ASCII without escape codes (where a byte is a
/// character), and gives what reading its text by characters gives: each
/// reader here follows its counterpart in SQLLogAnalyzer.swift step by step.
/// Other lines, and the rarer kinds of these (`fetch using …`, relationship
/// faults, prefetches, bound intarray annotations), are decoded and read by
/// characters.
extension SQLLogAnalyzer {
    /// Reads the text after a line's marker.
    mutating func handle(bytes rest: UnsafeRawBufferPointer, line: Int) {
        if Self.isPlainASCII(rest) {
            handle(ascii: LogBytes(rest), line: line)
        } else {
            handle(Self.decode(rest)[...], line: line)
        }
    }

    /// ``handle(_:line:)`` of an ASCII text.
    private mutating func handle(ascii text: LogBytes, line: Int) {
        let all = 0..<text.count
        releaseAnnotation()
        if text.starts(all, with: "sql: ") {
            finishStatement(seconds: nil, rows: nil)
            commitCandidateFetch()
            var start = 5, end = text.count
            let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
            while start < end, isSpace(text[start]) { start += 1 }
            while end > start, isSpace(text[end - 1]) { end -= 1 }
            let sql = UnsafeRawBufferPointer(rebasing: text.bytes[start..<end])
            if let known = knownStatement(sql) {
                pending = Self.pendingStatement(known, line: line)
            } else {
                let sql = text.string(start..<end)
                pending = PendingStatement(shape: SQLShape.normalize(sql), sql: sql, binds: [], line: line, control: TransactionControl(sql))
            }
            expectingPlan = false
            continuing = true
            if let control = pending!.control { noteTransaction(control, line: line) }
        } else if text.starts(all, with: "details: ") {
            let detail = 9..<text.count
            if let bind = text.find("bind[", in: detail), let equals = text.find("] = ", in: bind.upperBound..<text.count) {
                noteBind(text.string(equals.upperBound..<text.count))
            } else if let range = text.find("bound intarray ", in: detail) {
                analysis.boundIntarrays += 1
                noteBind(text.string(range.upperBound..<text.count))
            } else if text.find("EXPLAIN QUERY PLAN", in: detail) != nil {
                expectingPlan = true
            } else if case .row(let row) = Self.scanPlanRow(UnsafeRawBufferPointer(rebasing: text.bytes[detail])) {
                notePlanRow(ascii: text, (row.lowerBound + 9)..<(row.upperBound + 9))
            }
        } else if text.starts(all, with: "plan: ") {
            notePlanRow(ascii: text, 6..<text.count)
        } else if text.starts(all, with: "annotation: ") {
            let annotation = 12..<text.count
            if text.starts(annotation, with: "fetch using ") {
                // Read once: whether it is held, and what it says.
                let fetch = FetchUsing(text, annotation)
                if Self.isComplete(text, annotation) || text.find(", purpose: ", in: annotation) != nil || fetch?.values != nil {
                    // What ``annotation(ascii:_:line:)`` does with it (no
                    // earlier kind of annotation starts so).
                    if let fetch {
                        noteFetchUsing(fetch, line: line)
                    } else {
                        self.annotation(ascii: text, annotation, line: line)
                    }
                } else {
                    heldAnnotation = (text.string(annotation), line)
                    continuing = true
                }
            } else if Self.isComplete(text, annotation) || text.find(", purpose: ", in: annotation) != nil {
                self.annotation(ascii: text, annotation, line: line)
            } else {
                // Held for a line: a wrapped annotation continues on the next.
                heldAnnotation = (text.string(annotation), line)
                continuing = true
            }
        }
    }

    /// ``isComplete(_:)`` of ASCII bytes.
    static func isComplete(_ text: LogBytes, _ range: Range<Int>) -> Bool {
        var end = range.upperBound
        while end > range.lowerBound, text[end - 1] == 0x20 || text[end - 1] == 0x0D || text[end - 1] == 0x09 { end -= 1 }
        guard end > range.lowerBound else { return true }
        let before = { (offset: Int) -> UInt8? in end - offset >= range.lowerBound ? text[end - offset] : nil }
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        switch text[end - 1] {
        case UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "]"): return true
        case UInt8(ascii: "s"):
            guard let previous = before(2) else { return false }
            return isDigit(previous) || (previous == UInt8(ascii: "w") && before(3) == UInt8(ascii: "o") && before(4) == UInt8(ascii: "r"))
        case UInt8(ascii: "w"): return before(2) == UInt8(ascii: "o") && before(3) == UInt8(ascii: "r")
        default: return isDigit(text[end - 1])
        }
    }

    /// ``annotation(_:line:)`` of an ASCII annotation (`text[range]`).
    mutating func annotation(ascii text: LogBytes, _ range: Range<Int>, line: Int) {
        if text.starts(range, with: "Bound intarray ") || text.starts(range, with: "bound intarray ") {
            annotationByCharacters(text.string(range)[...], line: line)
        } else if text.starts(range, with: "sql execution time: ") {
            let seconds = seconds(in: text, range, line: line)
            if let read = Self.figuresInOrder(text, range, texts: &texts) {
                finishStatement(seconds: seconds, rows: read.rows, figures: read.figures)
            } else {
                let rows = Self.number(after: "rows: ", in: text, range)
                finishStatement(seconds: seconds, rows: rows, figures: StatementFigures(text, range, texts: &texts))
            }
        } else if text.starts(range, with: "sql connection fetch time: ") {
            // Core Data: the statement just read is a fetch under way.
            let seconds = seconds(in: text, range, line: line)
            if pending != nil {
                finishStatement(seconds: seconds, rows: nil)
                if let last = lastFinished { openFetch(last) }
            }
        } else if text.starts(range, with: "total count request execution time: ") {
            analysis.countRequests += 1
            finishStatement(seconds: seconds(in: text, range, line: line), rows: nil)
        } else if text.starts(range, with: "total fetch execution time: ") {
            // Core Data: the fetch under way is done; its rows.
            closeFetch(rows: Self.number(after: " for ", in: text, range), line: line)
        } else if let fetch = FetchUsing(text, range) {
            // Levels 2-3: `fetch using <statement> … returned N rows`.
            noteFetchUsing(fetch, line: line)
        } else if let found = text.find("fault fulfilled from ", in: range) {
            fault(ascii: text, range, rest: found.upperBound..<range.upperBound, line: line)
        } else if let found = text.find("relationship fault \"", in: range) {
            relationshipFault(ascii: text, range, name: found.upperBound, line: line)
        } else if text.find("Prefetching with key '", in: range) != nil {
            annotationByCharacters(text.string(range)[...], line: line)
        } else {
            noteOperation(ascii: text, range, line: line)
        }
    }

    /// A fault's annotation (`rest` follows `fault fulfilled from `).
    private mutating func fault(ascii text: LogBytes, _ range: Range<Int>, rest: Range<Int>, line: Int) {
        // The object's URI, before what a lazy load adds to the line.
        let object = text.find(" (", in: rest).map { rest.lowerBound..<$0.lowerBound } ?? rest
        let entity = Self.entity(in: UnsafeRawBufferPointer(rebasing: text.bytes[object]))
        if entity == nil, !releasing, text.find("x-coredata:", in: rest) == nil {
            // Held for a line: the object's URI may follow on the next.
            heldAnnotation = (text.string(range), line)
            continuing = true
            return
        }
        finishStatement(seconds: nil, rows: nil)
        closeFaultFetch()
        let source = text.starts(rest, with: "database") ? "database" : (text.starts(rest, with: "context") ? "context" : "row cache")
        note(.faults, entity: entity ?? SQLLogAnalysis.unknownEntity, source: source, line: line)
        let annotation = LogBytes(UnsafeRawBufferPointer(rebasing: text.bytes[range]))
        noteFault(
            entity: entity ?? "?", key: Self.primaryKey(in: LogBytes(UnsafeRawBufferPointer(rebasing: text.bytes[object]))),
            loaded: lazyLoadSuffix(annotation), nanoseconds: Self.nanoseconds(in: annotation), source: source, line: line)
        let index = bucket(line)
        timeline[index].faults += 1
    }

    /// A relationship fault's annotation (its name starts at `name`).
    private mutating func relationshipFault(ascii text: LogBytes, _ range: Range<Int>, name: Int, line: Int) {
        finishStatement(seconds: nil, rows: nil)
        closeFaultFetch()
        let relationship = text.string(name..<text.firstIndex(of: UInt8(ascii: "\""), in: name..<range.upperBound))
        // The database unless the line says only the row cache served it.
        let fromRowCache = text.find("from database", in: range) == nil && text.find("from row cache", in: range) != nil
        let source = fromRowCache ? "row cache" : "database"
        let head = text.find(" fulfilled ", in: range).map { range.lowerBound..<$0.lowerBound } ?? range
        let entity = Self.entity(in: UnsafeRawBufferPointer(rebasing: text.bytes[head])) ?? SQLLogAnalysis.unknownEntity
        note(.relationshipFaults, entity: "\(entity).\(relationship)", source: source, line: line)
        // Faultline: `…: 3 Comment in 0.000020s`; Core Data names no destination.
        var destination: (count: Int, entity: String)?
        if let fulfilled = text.find("fulfilled from ", in: range), let colon = text.find(": ", in: fulfilled.upperBound..<range.upperBound) {
            let words = text.split(colon.upperBound..<range.upperBound, separator: 0x20, maxSplits: 2)
            if words.count >= 2, let number = text.int(words[0]) { destination = (number, text.string(words[1])) }
        }
        let annotation = LogBytes(UnsafeRawBufferPointer(rebasing: text.bytes[range]))
        noteRelationshipFault(
            entity: entity, relationship: relationship, fromDatabase: !fromRowCache, loaded: lazyLoadSuffix(annotation),
            destination: destination,
            got: Self.number(after: "Got ", in: text, range), nanoseconds: Self.nanoseconds(in: annotation), line: line)
    }

    /// The lazy load suffix of an ASCII annotation. It depends only on the
    /// text after its last ` (`, which the faults of one run of a fetch
    /// share: the last one read is kept, and read again when the text is
    /// the same.
    private mutating func lazyLoadSuffix(_ bytes: LogBytes) -> LazyLoadSuffix {
        let count = bytes.count
        guard count > 0, bytes[count - 1] == UInt8(ascii: ")"), let open = bytes.findLast(" (", in: 0..<count) else { return LazyLoadSuffix() }
        let suffix = UnsafeRawBufferPointer(rebasing: bytes.bytes[open.upperBound...])
        if let last = lastSuffix,
           lastSuffixBytes.withUnsafeBytes({ $0.count == suffix.count && memcmp($0.baseAddress!, suffix.baseAddress!, suffix.count) == 0 })
        {
            return last
        }
        let value = LazyLoadSuffix(bytes, texts: &texts)
        lastSuffixBytes.removeAll(keepingCapacity: true)
        lastSuffixBytes.append(contentsOf: suffix)
        lastSuffix = value
        return value
    }

    /// ``noteOperation(_:line:)`` of an ASCII annotation.
    private mutating func noteOperation(ascii text: LogBytes, _ range: Range<Int>, line: Int) {
        guard let at = text.findLast(" at ", in: range) else { return }
        let site = Self.callSite(text, at.upperBound..<range.upperBound, texts: &texts)
        if text.starts(range, with: "fetch of "), let colon = text.find(": ", in: range) {
            var end = range.lowerBound + 9
            while end < range.upperBound, text[end] != 0x20, text[end] != UInt8(ascii: ":") { end += 1 }
            let entity = text.string((range.lowerBound + 9)..<end)
            let result = text.split(colon.upperBound..<range.upperBound, separator: 0x20, maxSplits: 3)
            if result.count >= 2, let count = text.int(result[0]) {
                let withValues = text.find(" with values in ", in: range) != nil
                evidence.add(fetch: FetchEvent(
                    start: 0, durationNanoseconds: 0, thread: 0, context: "", entity: entity, predicate: "", sort: "", resultType: text.string(result[1]),
                    resultCount: count, fetchLimit: 0, fetchOffset: 0, fetchBatchSize: 0, returnsObjectsAsFaults: !withValues,
                    includesPropertyValues: true, includesPendingChanges: true, prefetch: "", callSite: site))
            }
        } else if text.starts(range, with: "save of context "), let colon = text.find(": ", in: range) {
            let context = text.string((range.lowerBound + 16)..<colon.lowerBound)
            // The numbers of the words after the colon, each word's digits read together.
            var numbers: [Int] = []
            for word in text.split(colon.upperBound..<range.upperBound, separator: 0x20) {
                var digits: [UInt8] = []
                for index in word where text[index] &- 0x30 < 10 { digits.append(text[index]) }
                if let number = Int(String(decoding: digits, as: UTF8.self)) { numbers.append(number) }
            }
            if numbers.count >= 3 {
                evidence.add(save: SaveEvent(
                    start: 0, durationNanoseconds: 0, thread: 0, context: context, inserted: numbers[0], updated: numbers[1], deleted: numbers[2],
                    success: true, error: "", callSite: site))
            }
        } else if text.starts(range, with: "prefetch of ") {
            // Read by characters (once per prefetched relationship).
            return noteOperation(text.string(range)[...], line: line)
        } else if !(text.starts(range, with: "count of ") || text.starts(range, with: "batch ")) {
            return
        }
        flushRecentStatements(site: site)
    }

    /// The rows and figures of `sql execution time: <t>s, rows: <n>,
    /// changed: <n>[, scanned: <n>][, sorts: <n>], purpose: <p>` as
    /// Faultline writes it, read field after field; nil for any other text
    /// (read by searching, ``number(after:in:_:)``). The same as the search
    /// finds: before `purpose` only these names and numbers stand (the time
    /// is digits, points, an exponent and its unit), so each name's first
    /// occurrence is its field, and a field the line lacks is searched for
    /// in the purpose.
    static func figuresInOrder(_ text: LogBytes, _ range: Range<Int>, texts: inout LogTextTable) -> (rows: Int?, figures: StatementFigures)? {
        var index = range.lowerBound + 20
        let isTimeByte = { (byte: UInt8) in
            byte &- 0x30 < 10 || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "s") || byte == UInt8(ascii: "#")
        }
        while index < range.upperBound, isTimeByte(text[index]) { index += 1 }
        /// The digits of `, <name>: <digits>` at `index`, moving past them.
        func field(_ name: StaticString) -> Range<Int>? {
            guard text.starts(index..<range.upperBound, with: name) else { return nil }
            let start = index + name.utf8CodeUnitCount
            index = text.digitsEnd(from: start, to: range.upperBound)
            return start..<index
        }
        guard let rows = field(", rows: "), field(", changed: ") != nil else { return nil }
        let scanned = field(", scanned: ")
        let sorts = field(", sorts: ")
        guard text.starts(index..<range.upperBound, with: ", purpose: ") else { return nil }
        let purpose = (index + 11)..<range.upperBound
        var figures = StatementFigures()
        figures.scanned = (scanned.map { text.int($0) } ?? number(after: "scanned: ", in: text, purpose)) ?? 0
        figures.sorts = (sorts.map { text.int($0) } ?? number(after: "sorts: ", in: text, purpose)) ?? 0
        figures.purpose = texts.text(text, purpose)
        return (text.int(rows), figures)
    }

    /// ``seconds(in:line:)`` of ASCII bytes.
    private mutating func seconds(in text: LogBytes, _ range: Range<Int>, line: Int) -> Double? {
        switch Self.time(in: text, range) {
        case .seconds(let seconds): return seconds
        case .unknown: return nil
        case .notFinite:
            noteTimeNotFinite(line: line)
            return nil
        }
    }

    /// ``time(in:)`` over bytes.
    static func time(in text: LogBytes, _ range: Range<Int>) -> TimeReading {
        let colon = text.firstIndex(of: UInt8(ascii: ":"), in: range)
        guard colon < range.upperBound else { return .unknown }
        var start = colon + 1
        while start < range.upperBound, text[start] == 0x20 { start += 1 }
        let isDigit = { (byte: UInt8) in byte &- 0x30 < 10 }
        guard start < range.upperBound else { return .unknown }
        let first = text[start]
        guard first != UInt8(ascii: "#"), first != UInt8(ascii: ","), first != 0x0D else { return .unknown }
        guard isDigit(first) || first == UInt8(ascii: ".") else { return .notFinite }
        var end = start
        while end < range.upperBound, isDigit(text[end]) || text[end] == UInt8(ascii: ".") { end += 1 }
        // An exponent: `1e-05s`.
        var after = end
        if after < range.upperBound, text[after] | 0x20 == UInt8(ascii: "e") {
            after += 1
            if after < range.upperBound, text[after] == UInt8(ascii: "-") || text[after] == UInt8(ascii: "+") { after += 1 }
            let digits = text.digitsEnd(from: after, to: range.upperBound)
            if digits > after { end = digits }
        }
        guard let seconds = parseDouble(text, start..<end), seconds.isFinite else { return .notFinite }
        return .seconds(seconds)
    }

    /// What `Double(_:)` reads from `text[range]`: `digits[.digits]` with
    /// at most 15 significant digits and 22 decimals is read exactly as
    /// `strtod` rounds it (an integer below 2^53 divided by a power of ten
    /// that is exact, one rounding); other forms by `Double(_:)`.
    static func parseDouble(_ text: LogBytes, _ range: Range<Int>) -> Double? {
        var significand: UInt64 = 0
        var digits = 0
        var decimals = 0
        var sawPoint = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = text[index]
            if byte &- 0x30 < 10 {
                if significand > 0 || byte != 0x30 { digits += 1 }
                significand = significand &* 10 &+ UInt64(byte &- 0x30)
                if sawPoint { decimals += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint, index > range.lowerBound {
                sawPoint = true
            } else {
                return Double(text.string(range))
            }
            index += 1
        }
        // `5.` and forms with too many digits: the general reader.
        guard !range.isEmpty, text[range.upperBound - 1] != UInt8(ascii: "."), digits <= 15, decimals <= 22 else {
            return Double(text.string(range))
        }
        return Double(significand) / powersOfTen[decimals]
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// ``number(after:in:)`` over bytes.
    static func number(after marker: StaticString, in text: LogBytes, _ range: Range<Int>) -> Int? {
        guard let found = text.find(marker, in: range) else { return nil }
        return text.int(found.upperBound..<text.digitsEnd(from: found.upperBound, to: range.upperBound))
    }
}

extension SQLLogAnalyzer.StatementFigures {
    /// No figures.
    init() {}

    /// The figures of an ASCII annotation (its purpose kept in `texts`).
    init(_ text: LogBytes, _ range: Range<Int>, texts: inout LogTextTable) {
        scanned = SQLLogAnalyzer.number(after: "scanned: ", in: text, range) ?? 0
        sorts = SQLLogAnalyzer.number(after: "sorts: ", in: text, range) ?? 0
        if let found = text.find(", purpose: ", in: range) { purpose = texts.text(text, found.upperBound..<range.upperBound) }
    }
}
