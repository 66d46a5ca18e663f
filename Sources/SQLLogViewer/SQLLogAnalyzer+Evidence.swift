import Foundation
import Insights
import Probes

/// A log's lines turned into the engine's events, for the insight rules:
/// the same ``InsightEvidence`` a run gives, as far as the log shows it.
///
/// - Faultline's log says everything a rule needs: each statement's
///   figures (rows, full-scan steps, sorts, purpose), where each lazily
///   loaded object came from (the fetch, its run, the key path) and the
///   line that read it, fetches loaded with values, saves and prefetch
///   usage. A statement's call site is the one its operation's annotation
///   names (the fetch, the fault's read).
/// - Core Data's log names no call site and no key path: a lazy load's
///   object is taken to come from the last fetch before it (the outermost
///   SELECT a `total fetch execution time` closes, not a prefetch's,
///   unless a relationship fault or a fault by key owns it), its key path is the relationship a
///   relationship fault names, or unknown (`(Author)`), and full scans and
///   sorts come from query plans, without step counts.
extension SQLLogAnalyzer {
    /// What Faultline's `sql execution time` annotation adds: full-scan
    /// steps, sorts and the purpose.
    struct StatementFigures {
        var scanned = 0
        var sorts = 0
        var purpose: String?
        /// Level 1's digest of the bound values, which stands for them.
        var valuesDigest: String?
    }

    /// The most statements kept waiting for their call site.
    static let maximumRecentStatements = 32

    /// A statement finished and waiting for its call site and plan: what
    /// its event will carry. Its text and shape are its known text's, or
    /// its own, and the statements table's at `shapeIndex`.
    struct RecentStatement {
        var known: KnownStatement?
        var shapeIndex: Int
        /// The text as kept, for a statement without a known text.
        var sql: String?
        var facts: StatementFacts?
        /// Its bound values, hashed once (nil: none).
        var values: ArgumentList?
        var binds: [String] { values?.values ?? [] }
        var nanoseconds: UInt64
        var rows: Int
        var scanned: Int
        var sorts: Int
        var purpose: String
        var plan: [String]?
        var line: Int
    }

    /// A statement finished: its event waits for its call site and plan.
    /// `shape` is its shape as kept (``keep(_:)``), at `shapeIndex` in the
    /// statements table; without one (a shape beyond the table's bound)
    /// the rules do not see it.
    /// Returns the table it reads (`?` when the log does not say) and
    /// whether it is a lookup by key, as a Core Data fetch's needs them.
    @discardableResult
    mutating func noteStatement(
        _ statement: PendingStatement, values: ArgumentList?, shape: String, seconds: Double?, rows: Int?, figures: StatementFigures?,
        shapeIndex: Int?
    ) -> (entity: String, isKeyLookup: Bool) {
        if figures?.purpose != nil { sawStatementFigures = true }
        // Facts from the whole text (derived once per text where the values
        // do not matter); the event keeps texts cut.
        let facts: StatementFacts?
        if let known = statement.known, case .some(let cached) = known.facts {
            facts = cached
        } else if let known = statement.known, statement.control == nil {
            // Facts that read the bound values: kept per list of values.
            if let cached = knownStates[known.number].factsByValues[statement.binds] {
                facts = cached
            } else {
                facts = LoggedStatementFacts.facts(sql: statement.sql, arguments: statement.binds)
                if knownStates[known.number].factsByValues.count < KnownStatementState.maximumFactsByValues {
                    knownStates[known.number].factsByValues[statement.binds] = facts
                }
            }
        } else {
            facts = statement.control == nil ? LoggedStatementFacts.facts(sql: statement.sql, arguments: statement.binds) : nil
        }
        let purpose = statement.control != nil ? SQLEvent.transactionPurpose : figures?.purpose ?? SQLEvent.unknownPurpose
        let read = (entity: facts?.entity ?? "?", isKeyLookup: facts.map { $0.filters.isEmpty && $0.hasOtherConditions } ?? true)
        guard let shapeIndex else { return read }
        var sql: String?
        if let known = statement.known {
            if known.sqlCut { note(.storedText) }
        } else {
            sql = keep(statement.sql)
        }
        recentStatements.append(RecentStatement(
            known: statement.known, shapeIndex: shapeIndex, sql: sql, facts: facts, values: values,
            nanoseconds: seconds.map { UInt64(max(0, min($0, 1e9)) * 1e9) } ?? 0, rows: rows ?? 0, scanned: figures?.scanned ?? 0,
            sorts: figures?.sorts ?? 0, purpose: purpose, plan: statement.plan.isEmpty ? nil : statement.plan, line: statement.line))
        if recentStatements.count - recentHead > Self.maximumRecentStatements { flushRecentStatements(upTo: 1) }
        return read
    }

    /// A query plan row: the statement under way's, or the last one's
    /// (Core Data prints a plan after its statement's annotations).
    mutating func notePlan(_ row: String) {
        if pending != nil {
            guard pending!.plan.count < Self.maximumPlanRowsPerStatement else { return note(.planRowsPerStatement) }
            pending!.plan.append(row)
        } else if recentHead < recentStatements.count {
            let last = recentStatements.count - 1
            guard (recentStatements[last].plan?.count ?? 0) < Self.maximumPlanRowsPerStatement else {
                return note(.planRowsPerStatement)
            }
            if recentStatements[last].plan == nil { recentStatements[last].plan = [] }
            recentStatements[last].plan!.append(row)
        }
    }

    /// Adds the first `count` waiting statements (all by default) to the
    /// evidence, giving those without a call site of their own `site`.
    mutating func flushRecentStatements(upTo count: Int? = nil, site: CallSite? = nil) {
        let waiting = recentStatements.count - recentHead
        let taken = min(count ?? waiting, waiting)
        guard taken > 0 else { return }
        if recentHead + taken == recentStatements.count {
            // All of them: reversed in place, then moved out from the end, in order.
            var (low, high) = (recentHead, recentStatements.count - 1)
            while low < high {
                recentStatements.swapAt(low, high)
                (low, high) = (low + 1, high - 1)
            }
            for _ in 0..<taken { addToEvidence(recentStatements.popLast()!, site: site) }
            if recentHead > 0 {
                recentStatements.removeAll(keepingCapacity: true)
                recentHead = 0
            }
        } else {
            // The first of them (more statements waiting than are kept):
            // taken from the front, the array shifted only now and then.
            for index in recentHead..<(recentHead + taken) { addToEvidence(recentStatements[index], site: site) }
            recentHead += taken
            if recentHead >= 4 * Self.maximumRecentStatements {
                recentStatements.removeFirst(recentHead)
                recentHead = 0
            }
        }
    }

    /// Adds a waiting statement to the evidence, with `site` when it has no
    /// call site of its own (a log's statements name the log's line).
    ///
    /// The shape's figures are added up as ``StatementAggregate/add(_:)``
    /// adds an event's. A statement without bound values of a text whose
    /// repetitions are counted already is counted in place
    /// (``InsightEvidence/countExecution(text:isTransaction:)``), as adding
    /// its event would count it; any other gets its event.
    private mutating func addToEvidence(_ recent: consuming RecentStatement, site: CallSite?) {
        let shapeIndex = recent.shapeIndex
        let known = recent.known
        let sql = known?.keptSQL ?? recent.sql!
        let isTransaction = recent.purpose == SQLEvent.transactionPurpose
        // A statement whose values the log does not show (level 1) is
        // not known to repeat with the same ones; the engine's own
        // (``EngineWork``) is no repetition of a read.
        let valuesShown = (recent.values != nil || !(known?.hasParameterMark ?? Self.hasParameterMark(sql)))
            && !EngineWork.isEngineWork(purpose: recent.purpose)
        let slot = aggregateSlots[shapeIndex]
        if slot >= 0, let known {
            statementAggregates[slot].add(StatementParts(
                shapeID: 0, textID: -1, durationNanoseconds: recent.nanoseconds, rowsReturned: recent.rows, rowsChanged: 0,
                fullScanSteps: recent.scanned, sorts: recent.sorts, autoIndexes: 0, vmSteps: 0, isTransaction: isTransaction,
                hasDetails: recent.plan != nil || recent.values != nil))
            if statementAggregates[slot].queryPlan == nil, let plan = recent.plan { statementAggregates[slot].queryPlan = plan }
            if statementAggregates[slot].facts == nil, let facts = recent.facts { statementAggregates[slot].facts = facts }
            let place = site ?? CallSite(file: sourceName, line: recent.line)
            // Counted in place by shape and site only when the pair is
            // known, and then whatever else the event would add.
            if !isTransaction, !evidence.countSiteExecution(shape: shapeIndex, site: place, nanoseconds: recent.nanoseconds) {
                let counting = valuesShown && checksRepetitions(purpose: recent.purpose, sql: sql, known: known)
                let textID = counting ? evidenceTextID(sql, known: known) : nil
                return evidence.add(sql: event(recent, sql: sql, site: site, textID: textID), countingRepetitions: counting, shapeNumber: shapeIndex)
            }
            guard valuesShown, checksRepetitions(purpose: recent.purpose, sql: sql, known: known) else { return }
            let textID = evidenceTextID(sql, known: known)
            let counted = recent.values.map { evidence.countExecution(text: textID, arguments: $0, isTransaction: isTransaction) }
                ?? evidence.countExecution(text: textID, isTransaction: isTransaction)
            guard !counted else { return }
            // Its execution at its site is counted already.
            return evidence.add(sql: event(recent, sql: sql, site: site, textID: textID), countingRepetitions: true, countingSite: false)
        }
        let counting = valuesShown && checksRepetitions(purpose: recent.purpose, sql: sql, known: known)
        let textID = counting ? evidenceTextID(sql, known: known) : nil
        let event = event(recent, sql: sql, site: site, textID: textID)
        if slot < 0 {
            aggregateSlots[shapeIndex] = statementAggregates.count
            statementAggregates.append(StatementAggregate(
                shape: event.shape, purpose: event.purpose, firstCallSite: event.callSite, facts: event.facts))
        }
        statementAggregates[aggregateSlots[shapeIndex]].add(event)
        evidence.add(sql: event, countingRepetitions: counting, shapeNumber: shapeIndex)
    }

    /// The event of a waiting statement.
    private func event(_ recent: RecentStatement, sql: String, site: CallSite?, textID: Int?) -> SQLEvent {
        SQLEvent(
            start: 0, durationNanoseconds: recent.nanoseconds, thread: 0, sql: sql, shape: shapeTable[recent.shapeIndex].summary.shape,
            shapeID: recent.shapeIndex, arguments: recent.binds, rowsReturned: recent.rows, rowsChanged: 0, fullScanSteps: recent.scanned,
            sorts: recent.sorts, autoIndexes: 0, vmSteps: 0, purpose: recent.purpose, queryPlan: recent.plan,
            callSite: site ?? CallSite(file: sourceName, line: recent.line), textID: textID, facts: recent.facts)
    }

    /// Whether the evidence counts the repetitions of a statement of `sql`:
    /// yes for the first ``maximumRepetitionTexts`` texts (the evidence
    /// keeps each text it counts), no for later ones (the limit noted).
    private mutating func checksRepetitions(purpose: String, sql: String, known: KnownStatement?) -> Bool {
        guard purpose != SQLEvent.transactionPurpose else { return true }
        if let known, knownStates[known.number].repetitionsChecked { return true }
        let text = sql.hashValue
        if repetitionTexts.contains(text) {
            if let known { knownStates[known.number].repetitionsChecked = true }
            return true
        }
        guard repetitionTexts.count < Self.maximumRepetitionTexts else {
            note(.repetitionTexts)
            return false
        }
        repetitionTexts.insert(text)
        if let known { knownStates[known.number].repetitionsChecked = true }
        return true
    }

    // MARK: Core Data's fetches

    /// `total fetch execution time` closed `fetch`, an outermost one (not
    /// a prefetch; nil when the log does not have its statement): it is a
    /// fetch, unless the annotation that follows says a fault owns it.
    mutating func noteCandidateFetch(_ fetch: OpenFetch?) {
        commitCandidateFetch()
        if let fetch { candidateFetch = (fetch.entity, fetch.line, fetch.isKeyLookup, fetch.shape) }
    }

    /// The candidate fetch is a fetch: faults after it come from it.
    mutating func commitCandidateFetch() {
        guard let candidate = candidateFetch else { return }
        candidateFetch = nil
        fetchExecutions += 1
        currentFetch = (candidate.entity, CallSite(file: sourceName, line: candidate.line), fetchExecutions, candidate.shape)
    }

    /// The origin Core Data's log implies for a lazy load of `entity`
    /// reached through `relationship` ("" for an object fault): a fault of
    /// another entity than the fetch's, after a relationship fault of that
    /// fetch's objects, is taken to be one of that relationship's destinations.
    mutating func inferredOrigin(entity: String, relationship: String) -> FaultOrigin? {
        guard let fetch = currentFetch else { return nil }
        // Core Data's tables are Z and the entity's name in capitals.
        let ofFetch = Self.isTable(fetch.entity, of: entity) || fetch.entity == entity
        var keyPath: String
        if ofFetch {
            keyPath = relationship
            if !relationship.isEmpty {
                // The relationship's own SELECT, just read, names its destinations' table.
                let table = lastFinished.map(\.entity).flatMap { $0 == "?" ? nil : $0 }
                lastRelationship = (relationship, fetch.execution, table)
            }
        } else if relationship.isEmpty, let last = lastRelationship, last.execution == fetch.execution,
            last.destinationTable.map({ Self.isTable($0, of: entity) || $0 == entity }) ?? true
        {
            // A destination of the last relationship (another entity's
            // fault is a to-one of the fetch's objects, whose key path the
            // log does not name).
            keyPath = last.keyPath
        } else {
            keyPath = LazyLoadPath.unknownKeyPath(to: relationship.isEmpty ? entity : relationship)
        }
        return FaultOrigin(fetchEntity: fetch.entity, fetchSite: originSite(fetch.site, shape: fetch.shape), keyPath: keyPath, execution: fetch.execution)
    }

    /// Whether `table` in capitals is `Z` and `entity` in capitals: over
    /// bytes for ASCII names (no `String` made), else with `uppercased()`.
    static func isTable(_ table: String, of entity: String) -> Bool {
        var (table, entity) = (table, entity)
        let ascii = table.withUTF8 { table in
            entity.withUTF8 { entity -> Bool? in
                guard SQLDebugLogBytes.isASCII(UnsafeRawBufferPointer(table)), SQLDebugLogBytes.isASCII(UnsafeRawBufferPointer(entity)) else { return nil }
                let upper = { (byte: UInt8) in byte &- 0x61 < 26 ? byte - 0x20 : byte }
                guard table.count == entity.count + 1, upper(table[0]) == UInt8(ascii: "Z") else { return false }
                for index in 0..<entity.count where upper(table[index + 1]) != upper(entity[index]) { return false }
                return true
            }
        }
        return ascii ?? (table.uppercased() == "Z" + entity.uppercased())
    }

    /// The site a Core Data fetch's lazy loads are counted at: the line of
    /// its statement, for the first ``maximumFetchSites`` lines; then, the
    /// first line of its statement's shape (the limit noted), so that the
    /// lazy loads' table stays bounded however many fetches a log has.
    private mutating func originSite(_ site: CallSite, shape: String) -> CallSite {
        if fetchSiteLines.contains(site.line) { return site }
        if fetchSiteLines.count < Self.maximumFetchSites {
            fetchSiteLines.insert(site.line)
            return site
        }
        note(.fetchSites)
        if let last = lastShapeSite, last.shape == shape { return last.site }
        guard let index = shapeIndex[shape] else { return site }
        let shapeSite = CallSite(file: sourceName, line: shapeTable[index].summary.firstLine)
        lastShapeSite = (shape, shapeSite)
        return shapeSite
    }

    // MARK: Faults

    /// An object fault, its line read: the entity and key of its object,
    /// what its lazy load adds, its time.
    mutating func noteFault(entity: String, key: Int64, loaded: LazyLoadSuffix, nanoseconds: UInt64, source faultSource: FaultSource, line: Int) {
        if !loaded.isFaultline { learnEntityName(entity) }
        var inferred: FaultOrigin?
        if faultSource == .database, loaded.origin == nil, !loaded.isFaultline {
            // Core Data: the fault's own SELECT by key is no fetch.
            if candidateFetch?.isKeyLookup == true { candidateFetch = nil } else { commitCandidateFetch() }
            inferred = inferredOrigin(entity: entity, relationship: "")
        }
        flushRecentStatements(site: loaded.read)
        // What ``InsightEvidence/add(fault:)`` does with the fault's event,
        // without making one: the engine's own load is no read; a fault
        // from the database with an origin is a lazy load (stale when its
        // row was), any other notes its entity.
        guard loaded.engineWork == nil else { return }
        guard faultSource == .database, let origin = loaded.origin ?? inferred else { return evidence.noteFaulted(entity) }
        let read = loaded.read ?? CallSite(file: sourceName, line: line)
        evidence.addLazyLoad(entity: entity, origin: origin, stale: loaded.reason == .stale, nanoseconds: nanoseconds) { read }
    }

    /// A to-many relationship fault, its line read: what its lazy load adds,
    /// Faultline's destinations (`: 3 Comment`), Core Data's rows (`Got 3
    /// rows`), its time.
    mutating func noteRelationshipFault(
        entity: String, relationship: String, fromDatabase: Bool, loaded: LazyLoadSuffix, destination: (count: Int, entity: String)?, got: Int?,
        nanoseconds: UInt64, line: Int
    ) {
        var origin = loaded.origin
        var count = destination?.count ?? 0
        if !loaded.isFaultline {
            learnEntityName(entity)
            // Core Data: the SELECT before the annotation is the relationship's, not a fetch.
            candidateFetch = nil
            count = got ?? 0
            if fromDatabase { origin = inferredOrigin(entity: entity, relationship: relationship) }
        }
        flushRecentStatements(site: loaded.read)
        evidence.add(relationshipFault: RelationshipFaultEvent(
            start: 0, durationNanoseconds: nanoseconds, thread: 0, context: "", entity: entity, relationship: relationship,
            primaryKey: 0, destinationEntity: destination?.entity ?? "(\(relationship))", destinationCount: count,
            source: fromDatabase ? .database : .rowCache, callSite: loaded.read ?? CallSite(file: sourceName, line: line),
            missReason: fromDatabase ? .absent : nil, origin: origin, engineWork: loaded.engineWork))
    }

    /// The insights of the log, every waiting statement added.
    mutating func insights() -> [Insight] {
        flushRecentStatements()
        commitCandidateFetch()
        // Step and sort counts are Faultline's; Core Data's log has plans only.
        evidence.scanStepsKnown = sawStatementFigures
        evidence.statements = statementAggregates
        evidence.renameEntities(learnedEntityNames.merging(entityNames) { $1 })
        if !marksIterations {
            // A log judged whole may span a run's iterations or an app's screens.
            evidence.spansIterations = true
        }
        let insights = InsightEngine(settings: settings).insights(evidence)
        lastUnmatchedIntentions = InsightEngine.unmatchedIntentions(evidence, insights: insights)
        return insights
    }
}

extension SQLLogAnalyzer {
    /// The most entity names learned from a log.
    static let maximumLearnedEntityNames = 1_000

    /// Learns the table of an entity a Core Data log names (in an object's
    /// URI, `x-coredata://…/Post/p1`, or a fetch's `on entity 'Post'`):
    /// Core Data keeps entity `Post` in table `ZPOST`.
    mutating func learnEntityName(_ entity: String) {
        guard !entity.isEmpty, entity != "?", !entity.hasPrefix("("), learnedEntityNames.count < Self.maximumLearnedEntityNames else { return }
        let table = "Z" + entity.uppercased()
        if learnedEntityNames[table] == nil { learnedEntityNames[table] = entity }
    }
}

/// What Faultline's log adds to a lazy load's line: ` (absent; from fetch
/// 12 of Post at Blog/Blog.swift:70 through author; read at Blog/Blog.swift:73)`.
struct LazyLoadSuffix {
    var reason: CacheMissReason?
    var origin: FaultOrigin?
    var read: CallSite?
    /// The engine's work, for a load it made for its own bookkeeping
    /// (` (absent; engine inverse; …)`): no read of the application's.
    var engineWork: EngineWork?

    /// Whether the line had Faultline's suffix.
    var isFaultline: Bool { read != nil }
}
