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
        /// The purpose's place in the table of the log's texts, when kept there.
        var purposePlace: Int?
        /// Level 1's digest of the bound values, which stands for them.
        var valuesDigest: String?
    }

    /// The most statements kept waiting for their call site.
    static let maximumRecentStatements = 32

    /// A statement finished and waiting for its call site and plan: what
    /// its event will carry. Its text and shape are its known text's, or
    /// its own (``RecentDetails/sql``), and the statements table's at
    /// `shapeIndex`. Only plain values: a waiting statement is moved as
    /// bytes; what holds references waits beside it, for the statements
    /// that have any (``RecentDetails``).
    struct RecentStatement {
        /// Its known text's number (``KnownStatement/number``), -1 for none.
        var known: Int
        var shapeIndex: Int
        var nanoseconds: UInt64
        var rows: Int
        var scanned: Int
        var sorts: Int
        var line: Int
        var purpose: RecentPurpose
        /// Whether its facts are its known text's (``KnownStatement/facts``).
        var factsAreKnown: Bool
        /// Whether its purpose names the engine's own work (``EngineWork``).
        var isEngineWork: Bool
        /// Whether its details wait in ``recentDetails``.
        var hasDetails: Bool

        var isTransaction: Bool { purpose == .transaction }
    }

    /// A waiting statement's purpose: a transaction's
    /// (``SQLEvent/transactionPurpose``), none said
    /// (``SQLEvent/unknownPurpose``), or the one its annotation said, kept
    /// in the table of the log's texts or in its details.
    enum RecentPurpose: Equatable {
        case transaction, unknown
        case text(place: Int)
        case detailed
    }

    /// What a waiting statement holds beyond plain values, when it has any.
    struct RecentDetails {
        /// The text as kept, for a statement without a known text.
        var sql: String?
        /// Its facts when they are not its known text's.
        var facts: StatementFacts?
        /// Its bound values, hashed once.
        var values: ArgumentList?
        /// Its purpose, when not in the table of texts (``RecentPurpose/detailed``).
        var purpose: String?
        var plan: [String]?
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
        var facts: StatementFacts?
        let factsAreKnown: Bool
        let read: (entity: String, isKeyLookup: Bool)
        if let known = statement.known, let knownRead = known.read {
            // The known text's facts, not copied: what it reads was found with them.
            factsAreKnown = true
            read = knownRead
        } else {
            if let known = statement.known, statement.control == nil {
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
            factsAreKnown = false
            read = KnownStatement.read(facts)
        }
        guard let shapeIndex else { return read }
        // Details made only for a statement that has any.
        var details: RecentDetails?
        if facts != nil || values != nil || !statement.plan.isEmpty || statement.known == nil {
            details = RecentDetails(facts: facts, values: values, plan: statement.plan.isEmpty ? nil : statement.plan)
        }
        if let known = statement.known {
            if known.sqlCut { note(.storedText) }
        } else {
            details!.sql = keep(statement.sql)
        }
        // The purpose: a transaction's, Faultline's (which may name the
        // engine's own work), or none said.
        let purpose: RecentPurpose
        var isEngineWork = false
        if statement.control != nil {
            purpose = .transaction
        } else if let said = figures?.purpose {
            isEngineWork = EngineWork.isEngineWork(purpose: said)
            if said == SQLEvent.transactionPurpose {
                purpose = .transaction
            } else if let place = figures?.purposePlace {
                purpose = .text(place: place)
            } else {
                purpose = .detailed
                if details == nil { details = RecentDetails() }
                details!.purpose = said
            }
        } else {
            purpose = .unknown
        }
        let hasDetails = details != nil
        if let details { recentDetails.append(details) }
        recentStatements.append(RecentStatement(
            known: statement.known?.number ?? -1, shapeIndex: shapeIndex,
            nanoseconds: seconds.map { UInt64(max(0, min($0, 1e9)) * 1e9) } ?? 0, rows: rows ?? 0, scanned: figures?.scanned ?? 0,
            sorts: figures?.sorts ?? 0, line: statement.line, purpose: purpose, factsAreKnown: factsAreKnown, isEngineWork: isEngineWork,
            hasDetails: hasDetails))
        if recentStatements.count > Self.maximumRecentStatements { flushRecentStatements(upTo: 1) }
        return read
    }

    /// A query plan row: the statement under way's, or the last one's
    /// (Core Data prints a plan after its statement's annotations).
    mutating func notePlan(_ row: String) {
        if pending != nil {
            guard pending!.plan.count < Self.maximumPlanRowsPerStatement else { return note(.planRowsPerStatement) }
            pending!.plan.append(row)
        } else if let hasDetails = recentStatements.updateLast({ $0.hasDetails }) {
            if !hasDetails {
                // Its first detail: the last details waiting are its own.
                recentDetails.append(RecentDetails(plan: [row]))
                _ = recentStatements.updateLast { $0.hasDetails = true }
                return
            }
            let full = recentDetails.updateLast { last -> Bool in
                guard (last.plan?.count ?? 0) < Self.maximumPlanRowsPerStatement else { return true }
                if last.plan == nil { last.plan = [] }
                last.plan!.append(row)
                return false
            }
            if full == true { note(.planRowsPerStatement) }
        }
    }

    /// Adds the first `count` waiting statements (all by default) to the
    /// evidence, giving those without a call site of their own `site`.
    mutating func flushRecentStatements(upTo count: Int? = nil, site: CallSite? = nil) {
        var taken = min(count ?? recentStatements.count, recentStatements.count)
        while taken > 0, let recent = recentStatements.popFirst() {
            if recent.hasDetails {
                addToEvidence(recent, recentDetails.popFirst(), site: site)
            } else {
                addToEvidence(recent, nil, site: site)
            }
            taken -= 1
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
    private mutating func addToEvidence(_ recent: RecentStatement, _ details: RecentDetails?, site: CallSite?) {
        let shapeIndex = recent.shapeIndex
        let isTransaction = recent.isTransaction
        let slot = aggregateSlots[shapeIndex]
        if slot >= 0, recent.known >= 0 {
            // A known text's state is read in place; the text itself is
            // taken only where an event is made.
            let number = recent.known
            let plan = details?.plan
            let values = details?.values
            statementAggregates[slot].add(
                durationNanoseconds: recent.nanoseconds, rowsReturned: recent.rows, fullScanSteps: recent.scanned, sorts: recent.sorts)
            if let plan, statementAggregates[slot].queryPlan == nil { statementAggregates[slot].queryPlan = plan }
            if case .none = statementAggregates[slot].facts,
               let facts = recent.factsAreKnown ? knownStatements[number].facts! : details?.facts
            {
                statementAggregates[slot].facts = facts
            }
            let valuesShown = (values != nil || !knownStates[number].hasParameterMark) && !recent.isEngineWork
            // Counted in place by shape and site only when the pair is
            // known, and then whatever else the event would add.
            if !isTransaction, !countSiteExecution(shape: shapeIndex, site: site, line: recent.line, nanoseconds: recent.nanoseconds) {
                let known = knownStatements[number]
                let sql = known.keptSQL
                let counting = valuesShown && checksRepetitions(isTransaction: isTransaction, sql: sql, known: known)
                let textID = counting ? evidenceTextID(sql, known: known) : nil
                let event = event(recent, details, known: known, sql: sql, site: site, textID: textID)
                return evidence.add(sql: event, countingRepetitions: counting, shapeNumber: shapeIndex)
            }
            guard valuesShown else { return }
            if !isTransaction, !knownStates[number].repetitionsChecked {
                let known = knownStatements[number]
                guard checksRepetitions(isTransaction: isTransaction, sql: known.keptSQL, known: known) else { return }
            }
            let textID: Int
            if let counted = knownStates[number].evidenceTextID {
                textID = counted
            } else {
                let known = knownStatements[number]
                textID = evidenceTextID(known.keptSQL, known: known)
            }
            let counted = values.map { evidence.countExecution(text: textID, arguments: $0, isTransaction: isTransaction) }
                ?? evidence.countExecution(text: textID, isTransaction: isTransaction)
            guard !counted else { return }
            // Its execution at its site is counted already.
            let known = knownStatements[number]
            let event = event(recent, details, known: known, sql: known.keptSQL, site: site, textID: textID)
            return evidence.add(sql: event, countingRepetitions: true, countingSite: false)
        }
        let known = recent.known >= 0 ? knownStatements[recent.known] : nil
        let sql = known?.keptSQL ?? details!.sql!
        let valuesShown = (details?.values != nil || !(known?.hasParameterMark ?? Self.hasParameterMark(sql))) && !recent.isEngineWork
        let counting = valuesShown && checksRepetitions(isTransaction: isTransaction, sql: sql, known: known)
        let textID = counting ? evidenceTextID(sql, known: known) : nil
        let event = event(recent, details, known: known, sql: sql, site: site, textID: textID)
        if slot < 0 {
            aggregateSlots[shapeIndex] = statementAggregates.count
            statementAggregates.append(StatementAggregate(
                shape: event.shape, purpose: event.purpose, firstCallSite: event.callSite, facts: event.facts))
        }
        statementAggregates[aggregateSlots[shapeIndex]].add(event)
        evidence.add(sql: event, countingRepetitions: counting, shapeNumber: shapeIndex)
    }

    /// Counts in place an execution of the shape at `shape` in the
    /// statements table at `site`, or at the log's line `line` without
    /// one, when the evidence counted the pair before; false (nothing
    /// counted) otherwise (``InsightEvidence/countSiteExecution(shape:site:nanoseconds:)``).
    /// The evidence counts every line of the log at one place (no site of
    /// the application's), found once per shape.
    private mutating func countSiteExecution(shape: Int, site: CallSite?, line: Int, nanoseconds: UInt64) -> Bool {
        if let site { return evidence.countSiteExecution(shape: shape, site: site, nanoseconds: nanoseconds) }
        var slot = logSiteSlots[shape]
        if slot < 0 {
            let place = CallSite(file: sourceName, line: line)
            guard let found = evidence.siteSlot(shape: shape, site: place) else { return false }
            // Kept only where every line of the log shares its place.
            guard evidence.logName == sourceName else {
                evidence.countSiteExecution(atSlot: found, nanoseconds: nanoseconds)
                return true
            }
            slot = found
            logSiteSlots[shape] = found
        }
        evidence.countSiteExecution(atSlot: slot, nanoseconds: nanoseconds)
        return true
    }

    /// The purpose of a waiting statement.
    private func purpose(_ recent: RecentStatement, _ details: RecentDetails?) -> String {
        switch recent.purpose {
        case .transaction: SQLEvent.transactionPurpose
        case .unknown: SQLEvent.unknownPurpose
        case .text(let place): texts[place]
        case .detailed: details!.purpose!
        }
    }

    /// The event of a waiting statement.
    private func event(
        _ recent: RecentStatement, _ details: RecentDetails?, known: KnownStatement?, sql: String, site: CallSite?, textID: Int?
    ) -> SQLEvent {
        SQLEvent(
            start: 0, durationNanoseconds: recent.nanoseconds, thread: 0, sql: sql, shape: shapeTable[recent.shapeIndex].summary.shape,
            shapeID: recent.shapeIndex, arguments: details?.values?.values ?? [], rowsReturned: recent.rows, rowsChanged: 0,
            fullScanSteps: recent.scanned, sorts: recent.sorts, autoIndexes: 0, vmSteps: 0, purpose: purpose(recent, details),
            queryPlan: details?.plan, callSite: site ?? CallSite(file: sourceName, line: recent.line), textID: textID,
            facts: recent.factsAreKnown ? known!.facts! : details?.facts)
    }

    /// Whether the evidence counts the repetitions of a statement of `sql`:
    /// yes for the first ``maximumRepetitionTexts`` texts (the evidence
    /// keeps each text it counts), no for later ones (the limit noted).
    private mutating func checksRepetitions(isTransaction: Bool, sql: @autoclosure () -> String, known: KnownStatement?) -> Bool {
        guard !isTransaction else { return true }
        if let known, knownStates[known.number].repetitionsChecked { return true }
        let text = sql().hashValue
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
        // Its fields read in place: binding the fetch copied all of it.
        guard currentFetch != nil else { return nil }
        let fetchEntity = currentFetch!.entity
        let execution = currentFetch!.execution
        // Core Data's tables are Z and the entity's name in capitals.
        let ofFetch = Self.isTable(fetchEntity, of: entity) || fetchEntity == entity
        var keyPath: String
        if ofFetch {
            keyPath = relationship
            if !relationship.isEmpty {
                // The relationship's own SELECT, just read, names its destinations' table.
                let read = lastFinished?.entity
                let table = read == "?" ? nil : read
                lastRelationship = (relationship, execution, table)
            }
        } else if relationship.isEmpty, let last = lastRelationship, last.execution == execution,
            last.destinationTable.map({ Self.isTable($0, of: entity) || $0 == entity }) ?? true
        {
            // A destination of the last relationship (another entity's
            // fault is a to-one of the fetch's objects, whose key path the
            // log does not name).
            keyPath = last.keyPath
        } else {
            keyPath = LazyLoadPath.unknownKeyPath(to: relationship.isEmpty ? entity : relationship)
        }
        let site = originSite(currentFetch!.site, shape: currentFetch!.shape)
        return FaultOrigin(fetchEntity: fetchEntity, fetchSite: site, keyPath: keyPath, execution: execution)
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
            primaryKey: 0, destinationEntity: destination?.entity ?? unnamedDestination(relationship), destinationCount: count,
            source: fromDatabase ? .database : .rowCache, callSite: loaded.read ?? CallSite(file: sourceName, line: line),
            missReason: fromDatabase ? .absent : nil, origin: origin, engineWork: loaded.engineWork))
    }

    /// The destination a relationship fault's line does not name:
    /// `(relationship)`. Faults of one relationship come in runs: the last
    /// one made is given again.
    private mutating func unnamedDestination(_ relationship: String) -> String {
        if let last = lastUnnamedDestination, last.relationship == relationship { return last.destination }
        let destination = "(\(relationship))"
        lastUnnamedDestination = (relationship, destination)
        return destination
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
        // Lines name one entity many times over: learning it again changes nothing.
        if entity == lastLearnedEntity { return }
        lastLearnedEntity = entity
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
