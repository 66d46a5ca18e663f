import Foundation
import Insights
import Probes

/// The analyzer's reading of lines: each line is tokenized once, by the
/// SQL debug log's one tokenizer (Probes' `SQLDebugLogLine`, the grammar
/// the writer writes with), into a typed line, and the analyzer acts on
/// its kind and fields. Nothing here reads a phrase: what depends on the
/// lines before (a plan row after an `EXPLAIN QUERY PLAN`, a wrapped
/// statement or annotation, a paste's cut prefix, level 3 values) is asked
/// of the tokenizer's reading of an unmarked line.
extension SQLLogAnalyzer {
    /// A wrapped statement or annotation grows to this many bytes at most:
    /// memory stays bounded whatever follows a long line.
    static let maximumJoinedBytes = 65_536
    /// Lines after an `EXPLAIN QUERY PLAN` in which its first row may come.
    static let planWindow = 40
    /// The shortest line that can have been wrapped (terminals wrap at 80,
    /// e-mails at 72, some pages at 64).
    static let wrapWidth = 60

    /// Reads one line (its bytes, without the newline; a carriage return
    /// before the newline is no part of the line either).
    mutating func consume(raw line: UnsafeRawBufferPointer) {
        analysis.lines += 1
        // Without a carriage return at its end (as SQLDebugLogBytes.droppingReturn).
        let bytes = line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line[..<(line.count - 1)]) : line
        let number = analysis.lines
        let marked = SQLDebugLogLine.read(bytes) { line in
            sawMarker = true
            continuing = false
            if pendingValues != nil { endValues() }
            if heldPlanRow != nil { flushPlanRow() }
            analysis.logLines += 1
            let format: SQLLogFormat = line.marker == .faultline ? .faultline : .coredata
            if format != lastFormat {
                formats.insert(format)
                lastFormat = format
            }
            handle(line, line: number)
        }
        guard marked else { return consumeUnmarked(bytes) }
        wrapCheck(bytes.count)
    }

    /// Notes whether the line just read is as long as the lines a
    /// terminal or a page wraps at: the next may continue it.
    mutating func wrapCheck(_ length: Int) {
        lastLineWrapped = length >= Self.wrapWidth
    }

    // MARK: Log lines

    /// Acts on a log line.
    mutating func handle(_ line: SQLDebugLogLine, line number: Int) {
        releaseAnnotation()
        let text = line.text
        switch line.kind {
        case .statement(let sql):
            finishStatement(seconds: nil, rows: nil)
            commitCandidateFetch()
            pending = statement(text, sql, line: number)
            expectingPlan = false
            continuing = true
            if let control = pending!.control { noteTransaction(control, line: number) }
        case .bind(_, let value):
            noteBind(text.string(value))
        case .boundIntarray(let values):
            analysis.boundIntarrays += 1
            noteBind(text.string(values))
        case .explainQueryPlan:
            expectingPlan = true
        case .planRow(let row):
            notePlanRow(text, row)
        case .annotation(let annotation):
            if annotation.isWhole {
                self.annotation(annotation, text, line: number)
            } else {
                // Held for a line: a wrapped annotation continues on the next.
                heldAnnotation = (text.string(annotation.range), number)
                continuing = true
            }
        case .message(let level, let message):
            noteFinding(level, text.string(message), line: number)
        case .fetchedObject, .objectValues, .detail, .other:
            break
        }
    }

    /// The statement `text[sql]` read at `line`.
    mutating func statement(_ text: SQLDebugLogBytes, _ sql: Range<Int>, line: Int) -> PendingStatement {
        if let known = knownStatement(text.slice(sql)) { return PendingStatement(known, line: line) }
        let sql = text.string(sql)
        return PendingStatement(shape: SQLShape.normalize(sql), sql: sql, line: line, control: TransactionControl(sql))
    }

    /// A bound value of the statement under way, kept cut (``keep(_:)``),
    /// at most ``maximumBindsPerStatement`` of them.
    mutating func noteBind(_ value: String) {
        guard pending != nil else { return }
        guard pending!.binds.count < Self.maximumBindsPerStatement else { return note(.binds) }
        pending!.binds.append(keep(value))
    }

    // MARK: Annotations

    /// Acts on the held annotation, if any: its text (joined to the lines
    /// that continued it) is tokenized now.
    @inline(__always)
    mutating func releaseAnnotation() {
        if heldAnnotation != nil { releaseHeldAnnotation() }
    }

    private mutating func releaseHeldAnnotation() {
        guard var held = heldAnnotation else { return }
        heldAnnotation = nil
        releasing = true
        held.text.withUTF8 { buffer in
            let text = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
            annotation(SQLDebugLogAnnotation(text), text, line: held.line)
        }
        releasing = false
    }

    /// Acts on an annotation of `text`.
    mutating func annotation(_ annotation: SQLDebugLogAnnotation, _ text: SQLDebugLogBytes, line: Int) {
        switch annotation.kind {
        case .boundIntarray(let values):
            // Core Data prints a bound key list as an annotation of its own.
            analysis.boundIntarrays += 1
            noteBind(text.string(values))
        case .statementTime:
            let time = SQLDebugLogAnnotation.StatementTime(annotation, in: text)
            let seconds = seconds(time.time, line: line)
            var figures = StatementFigures()
            figures.scanned = time.scanned
            figures.sorts = time.sorts
            if let purpose = time.purpose { (figures.purpose, figures.purposePlace) = texts.entry(text, purpose) }
            figures.valuesDigest = time.valuesDigest
            finishStatement(seconds: seconds, rows: time.rows, figures: figures)
        case .connectionFetchTime(let time):
            // Core Data: the statement just read is a fetch under way.
            let seconds = seconds(time, line: line)
            if pending != nil {
                finishStatement(seconds: seconds, rows: nil)
                if let last = lastFinished { openFetch(last) }
            }
        case .countRequestTime(let time):
            analysis.countRequests += 1
            finishStatement(seconds: seconds(time, line: line), rows: nil)
        case .totalFetchTime(_, let rows):
            // Core Data: the fetch under way is done; its rows.
            closeFetch(rows: rows, line: line)
        case .fetchUsing:
            // Levels 2-3: `fetch using <statement> … returned N rows`.
            noteFetchUsing(FetchUsing(SQLDebugLogAnnotation.FetchUsing(annotation, in: text), text), line: line)
        case .fault:
            let fault = SQLDebugLogAnnotation.Fault(annotation, in: text)
            if fault.awaitsObject, !releasing {
                // Held for a line: the object's URI may follow on the next.
                heldAnnotation = (text.string(annotation.range), line)
                continuing = true
                return
            }
            finishStatement(seconds: nil, rows: nil)
            closeFaultFetch()
            let source = fault.source.rawValue
            let entity = fault.entity.map { text.string($0) }
            note(.faults, entity: entity ?? SQLLogAnalysis.unknownEntity, source: source, line: line)
            noteFault(
                entity: entity ?? "?", key: fault.primaryKey, loaded: lazyLoad(text, fault.lazyLoad), nanoseconds: fault.nanoseconds, source: fault.source,
                line: line)
            let index = bucket(line)
            timeline[index].faults += 1
        case .relationshipFault:
            let fault = SQLDebugLogAnnotation.RelationshipFault(annotation, in: text)
            finishStatement(seconds: nil, rows: nil)
            closeFaultFetch()
            let relationship = text.string(fault.name)
            let entity = fault.entity.map { text.string($0) } ?? SQLLogAnalysis.unknownEntity
            note(.relationshipFaults, entity: relationshipName(entity, relationship), source: fault.fromRowCache ? "row cache" : "database", line: line)
            let destination = fault.destinationCount.map { (count: $0, entity: text.string(fault.destinationEntity!)) }
            noteRelationshipFault(
                entity: entity, relationship: relationship, fromDatabase: !fault.fromRowCache, loaded: lazyLoad(text, fault.lazyLoad),
                destination: destination, got: fault.got, nanoseconds: fault.nanoseconds, line: line)
        case .prefetchingWithKey(let key):
            note(.prefetches, entity: text.string(key), source: "prefetch", line: line)
        case .fetch:
            let fetch = SQLDebugLogAnnotation.Fetch(annotation, in: text)
            let site = callSite(text, fetch.site)
            if let count = fetch.count, let resultType = fetch.resultType {
                evidence.add(fetch: FetchEvent(
                    start: 0, durationNanoseconds: 0, thread: 0, context: "", entity: text.string(fetch.entity), predicate: "", sort: "",
                    resultType: text.string(resultType), resultCount: count, fetchLimit: 0, fetchOffset: 0, fetchBatchSize: 0,
                    returnsObjectsAsFaults: !fetch.withValues, includesPropertyValues: true, includesPendingChanges: true, prefetch: "",
                    intendedLazyLoads: fetch.intending.map { text.string($0) } ?? "", callSite: site))
            }
            flushRecentStatements(site: site)
        case .count:
            flushRecentStatements(site: callSite(text, SQLDebugLogAnnotation.Count(annotation, in: text).site))
        case .save:
            let save = SQLDebugLogAnnotation.Save(annotation, in: text)
            let site = callSite(text, save.site)
            if let inserted = save.inserted, let updated = save.updated, let deleted = save.deleted {
                evidence.add(save: SaveEvent(
                    start: 0, durationNanoseconds: 0, thread: 0, context: text.string(save.context), inserted: inserted, updated: updated,
                    deleted: deleted, success: true, error: "", callSite: site))
            }
            flushRecentStatements(site: site)
        case .saveFailed:
            flushRecentStatements(site: callSite(text, SQLDebugLogAnnotation.SaveFailure(annotation, in: text).site))
        case .batch:
            flushRecentStatements(site: callSite(text, SQLDebugLogAnnotation.Batch(annotation, in: text).site))
        case .prefetchUsage:
            let usage = SQLDebugLogAnnotation.PrefetchUsage(annotation, in: text)
            let site = callSite(text, usage.site)
            evidence.add(context: ContextEvent(
                start: 0, thread: 0, context: text.string(usage.context), kind: .prefetchUsage, objectsRegistered: 0, objectsRegisteredPeak: 0,
                prefetchUsage: PrefetchUsage(relationship: text.string(usage.relationship), prefetched: usage.prefetched, read: usage.read, callSite: site)))
        case .iteration:
            finishStatement(seconds: nil, rows: nil)
            noteIteration(SQLDebugLogAnnotation.Iteration(annotation, in: text), text)
        case .fetchUsage:
            let use = SQLDebugLogAnnotation.FetchUse(annotation, in: text)
            guard let figures = use.figures else { break }
            let usage = FetchUsage(
                entity: text.string(use.entity), callSite: callSite(text, use.site), keyPath: use.keyPath.map { text.string($0) } ?? "",
                runs: figures[0], objects: figures[1], read: figures[2],
                runsReadNone: figures[3], largestReadNone: figures[4], mostUnread: figures[5], mostUnreadOf: figures[6])
            evidence.add(context: ContextEvent(
                start: 0, thread: 0, context: text.string(use.context), kind: .fetchUsage, objectsRegistered: 0, objectsRegisteredPeak: 0,
                fetchUsage: usage))
        case .other:
            // Core Data closing its connection after SQLite failed: an error of the log.
            if text.starts(annotation.range, with: SQLDebugLogGrammar.disconnecting) {
                noteFinding(.error, text.string(text.trimmingTableResidue(annotation.range)), line: line)
            }
        }
    }

    /// `Entity.relationship`, the name a relationship fault is counted
    /// under. Faults of one relationship come in runs: the last name made
    /// is given again.
    mutating func relationshipName(_ entity: String, _ relationship: String) -> String {
        if let last = lastRelationshipName, last.entity == entity, last.relationship == relationship { return last.name }
        let name = "\(entity).\(relationship)"
        lastRelationshipName = (entity, relationship, name)
        return name
    }

    /// The seconds of a statement's time, or nil; a time that is not a
    /// finite number is counted (``SQLLogAnalysis/timesNotFinite``) and
    /// taken as unknown.
    mutating func seconds(_ time: SQLDebugLogTime, line: Int) -> Double? {
        switch time {
        case .seconds(let seconds): return seconds
        case .unknown: return nil
        case .notFinite:
            noteTimeNotFinite(line: line)
            return nil
        }
    }

    /// A call site of a line, its file's name kept once (``LogTextTable``).
    mutating func callSite(_ text: SQLDebugLogBytes, _ site: SQLDebugLogCallSite) -> CallSite {
        site.line > 0 ? CallSite(file: texts.text(text, site.file), line: site.line) : CallSite(logFile: text.string(site.file), line: site.line)
    }

    /// The lazy load a fault's line adds (`text[range]`, inside its ` (…)`).
    /// The faults of one run of a fetch share it: the last one read is
    /// kept, and given again when the text is the same.
    mutating func lazyLoad(_ text: SQLDebugLogBytes, _ range: Range<Int>?) -> LazyLoadSuffix {
        guard let range else { return LazyLoadSuffix() }
        let suffix = text.slice(range)
        if let last = lastSuffix,
           lastSuffixBytes.withUnsafeBytes({ $0.count == suffix.count && (suffix.isEmpty || memcmp($0.baseAddress!, suffix.baseAddress!, suffix.count) == 0) })
        {
            return last
        }
        let read = SQLDebugLogLazyLoad(text, range)
        var value = LazyLoadSuffix()
        value.reason = read.reason
        value.read = read.read.map { callSite(text, $0) }
        value.engineWork = read.engineWork
        if let execution = read.execution, let entity = read.fetchEntity, let site = read.fetchSite {
            value.origin = FaultOrigin(
                fetchEntity: text.string(entity), fetchSite: callSite(text, site), keyPath: read.keyPath.map { text.string($0) } ?? "",
                execution: execution)
        }
        lastSuffixBytes.removeAll(keepingCapacity: true)
        lastSuffixBytes.append(contentsOf: suffix)
        lastSuffix = value
        return value
    }

    // MARK: Lines without a marker

    /// A line without a marker: level 3 values, a plan row, a statement's or
    /// annotation's wrapped continuation, a first line whose prefix the
    /// paste cut (`ata: sql: …`), a log line pasted without its prefix
    /// (when no prefixed line came before), or other output.
    mutating func consumeUnmarked(_ bytes: UnsafeRawBufferPointer) {
        // Level 3 values after their fetch: counted, kept cut, not decoded beyond that.
        if pendingValues != nil { return consumeValuesLine(bytes) }
        // The shell's `0|0|0|SCAN TABLE …` after a statement, with no
        // EXPLAIN before it: a plan row of that statement.
        if !expectingPlan, planWait == nil, let first = bytes.first, first &- 0x30 < 10, pending != nil || lastFinished != nil,
           SQLDebugLogPlanRow.shell(SQLDebugLogBytes(bytes), 0..<bytes.count) != nil
        {
            expectingPlan = true
        }
        // Most such lines are other output: read only what may be a log line.
        let mayBeLog = expectingPlan || planWait != nil || analysis.logLines == 0 || !sawMarker
            || (continuing && (pending != nil || heldAnnotation != nil))
        guard mayBeLog else {
            if SQLDebugLogUnmarkedLine.mentionsQueryPlan(bytes) { planWait = Self.planWindow }
            releaseAnnotation()
            analysis.skippedLines += 1
            return
        }
        // A plain ASCII line is read in place, without the closure
        // SQLDebugLogUnmarkedLine.read takes (the same reading).
        let text = bytes.last == 0x0D ? UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 1)]) : bytes
        if SQLDebugLogBytes.isPlainASCII(text) { return unmarked(SQLDebugLogUnmarkedLine(SQLDebugLogBytes(text)), raw: bytes) }
        SQLDebugLogUnmarkedLine.read(bytes) { unmarked($0, raw: bytes) }
    }

    /// ``consumeUnmarked(_:)`` of a line that may be a log line (`raw`: its bytes).
    private mutating func unmarked(_ line: SQLDebugLogUnmarkedLine, raw: UnsafeRawBufferPointer) {
        let length = raw.count
        let text = line.text
        // A plan row (the lines after an EXPLAIN): held, the next line may continue it.
        let mayBePlanRow = expectingPlan || planWait != nil
        if mayBePlanRow, let row = line.planRow {
            analysis.logLines += 1
            if heldPlanRow != nil { flushPlanRow() }
            // Shell output alone (no log line of another format before it).
            if formats.isEmpty { formats.insert(.sqlite3) }
            // One with Faultline's mark is noted without it.
            let known = row.isMarked ? nil : knownPlanRow(text.slice(row.detail))
            // Without a closure over the analyzer: one copied all of it.
            let kept: String
            if let known { kept = planRowList[known].row } else { kept = text.string(row.detail) }
            heldPlanRow = (kept, analysis.lines, known)
            expectingPlan = true
            planWait = nil
            continuing = false
            return
        }
        if let held = heldPlanRow {
            if length < 4_096, SQLDebugLogPlanRow.continues(held.row, with: line, readAsNoRow: mayBePlanRow), !joinedTooLong(held.row) {
                // A plan row wrapped by a page or a terminal: its index name, its condition.
                heldPlanRow!.row = held.row + " " + text.string(text.trimmingSpacesAndReturns(line.rest))
                heldPlanRow!.known = nil
                analysis.logLines += 1
                analysis.joinedLines += 1
                return
            }
            flushPlanRow()
        }
        if SQLDebugLogUnmarkedLine.mentionsQueryPlan(raw) {
            planWait = Self.planWindow
        } else if let wait = planWait {
            planWait = wait > 1 ? wait - 1 : nil
        }
        expectingPlan = false
        if analysis.logLines == 0, let recovered = line.withCutPrefix {
            // The paste began inside the prefix: a damaged first line.
            analysis.recoveredLines += 1
            formats.insert(recovered.marker == .faultline ? .faultline : .coredata)
            analysis.logLines += 1
            continuing = false
            handle(recovered, line: analysis.lines)
            wrapCheck(length)
            return
        }
        if !sawMarker, let unprefixed = line.withoutPrefix {
            if lastFormat != .unprefixed {
                formats.insert(.unprefixed)
                lastFormat = .unprefixed
            }
            analysis.logLines += 1
            continuing = false
            handle(unprefixed, line: analysis.lines)
            wrapCheck(length)
            return
        }
        if continuing, let held = heldAnnotation, !line.isBlank, length < 4_096, !joinedTooLong(held.text) {
            var heldText = held.text
            let (needsObject, isComplete) = heldText.withUTF8 { buffer in
                let annotation = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
                return (SQLDebugLogContinuation.needsObject(annotation), SQLDebugLogContinuation.isComplete(annotation, annotation.all))
            }
            if needsObject, line.isObjectURI {
                // A fault's object on the line after it: the annotation is whole now.
                heldAnnotation!.text += " " + text.string(text.trimmingSpacesAndReturns(line.rest))
                analysis.logLines += 1
                analysis.joinedLines += 1
                continuing = false
                releaseAnnotation()
                return
            }
            if lastLineWrapped, !isComplete, !line.startsLikeALogLine {
                // An annotation wrapped by a terminal or an e-mail.
                heldAnnotation!.text += " " + text.string(line.rest)
                analysis.logLines += 1
                analysis.joinedLines += 1
                lastLineWrapped = length >= Self.wrapWidth
                return
            }
        }
        if heldAnnotation != nil {
            // A line after an annotation that does not continue it.
            releaseAnnotation()
            continuing = false
        }
        if continuing, pending != nil, !line.isBlank, length < 4_096, !line.startsLikeALogLine,
           lastLineWrapped || line.continuesStatement || pending!.withText({ SQLDebugLogContinuation.isUnfinished(SQLDebugLogBytes($0)) }),
           !joinedTooLong(length: pending!.length)
        {
            // A statement wrapped by a terminal, an email or a page, or
            // written over several lines (`FROM …`, `WHERE …` on lines of their own).
            pending!.join(text.slice(line.rest))
            analysis.logLines += 1
            analysis.joinedLines += 1
            lastLineWrapped = length >= Self.wrapWidth
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
        joinedTooLong(length: text.utf8.count)
    }

    /// ``joinedTooLong(_:)`` of a text of `length` bytes.
    private mutating func joinedTooLong(length: Int) -> Bool {
        guard length >= Self.maximumJoinedBytes else { return false }
        note(.joinedLength)
        return true
    }
}
