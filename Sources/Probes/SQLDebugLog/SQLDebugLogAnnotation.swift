import Foundation

/// An annotation of a SQL debug log (the text after `annotation: `),
/// tokenized: Faultline's statement figures, faults and operations, Core
/// Data's fetch times, row counts, faults and prefetches. Fields are byte
/// ranges of the line's text (``SQLDebugLogLine/text``).
///
/// An annotation is read by its first phrase, in this order: `Bound
/// intarray`, `sql execution time:`, `sql connection fetch time:`, `total
/// count request execution time:`, `total fetch execution time:`,
/// Faultline's `iteration <n> begins:` and `ends:`, `fetch using`, then
/// `fault fulfilled from`, `relationship fault "` and `Prefetching with
/// key '` anywhere in it, then Faultline's operations
/// (`fetch of`, `count of`, `save of context`, `batch`, `prefetch of`,
/// `fetch use of`),
/// which end with a call site.
///
/// The annotation says its kind and where the phrase that says it stands;
/// a kind with a few fields carries them, and each other kind's fields are
/// read by its type from the annotation (`Fault(annotation, in: text)`):
/// a typed line stays small, so reading one copies little.
package struct SQLDebugLogAnnotation: Equatable, Sendable {
    /// The annotation's text in the line.
    package var range: Range<Int>
    /// Whether it ends as annotations end (``SQLDebugLogContinuation/isComplete(_:_:)``),
    /// ends with Faultline's purpose, or starts level 3 values: one that
    /// does not may go on on the next line (a wrap).
    package var isWhole: Bool
    package var kind: Kind
    /// The phrase that says the kind: the prefix, the phrase found in the
    /// text (`fault fulfilled from `), Core Data's last ` returned `, an
    /// operation's last ` at `.
    package var phrase: Range<Int>

    /// What an annotation says.
    package enum Kind: Equatable, Sendable {
        /// `Bound intarray <name>` (Core Data's bound key list; `values`
        /// follows `Bound intarray `).
        case boundIntarray(values: Range<Int>)
        /// `sql execution time: …`: the time (and Faultline's figures) of
        /// the statement before (``StatementTime``).
        case statementTime
        /// `sql connection fetch time: <t>s` (Core Data): the statement
        /// before is a fetch under way.
        case connectionFetchTime(SQLDebugLogTime)
        /// `total count request execution time: <t>s for count of <n>.` (Core Data).
        case countRequestTime(SQLDebugLogTime)
        /// `total fetch execution time: <t>s for <n> rows.` (Core Data): the
        /// fetch under way is done.
        case totalFetchTime(SQLDebugLogTime, rows: Int?)
        /// `fetch using NSSQLiteStatement … returned <n> rows` (Core Data,
        /// levels 2-3; ``FetchUsing``).
        case fetchUsing(rows: Int)
        /// `fault fulfilled from …` (``Fault``).
        case fault
        /// `to-many relationship fault "<name>" …` (``RelationshipFault``).
        case relationshipFault
        /// `Prefetching with key '<key>'.  Got <n> rows.` (Core Data).
        case prefetchingWithKey(key: Range<Int>)
        /// `fetch of …` (Faultline; ``Fetch``).
        case fetch
        /// `count of …` (Faultline; ``Count``).
        case count
        /// `save of context <name>: …` (Faultline; ``Save``).
        case save
        /// `save of context <name> failed in …` (Faultline; ``SaveFailure``).
        case saveFailed
        /// `batch <kind> of <Entity>: …` (Faultline; ``Batch``).
        case batch
        /// `prefetch of <Entity>.<relationship> in context …` (Faultline; ``PrefetchUsage``).
        case prefetchUsage
        /// `iteration <n> begins: <scenario>` or `… ends: …` (Faultline; ``Iteration``).
        case iteration
        /// `fetch use of <Entity> in context …` (Faultline; ``FetchUse``).
        case fetchUsage
        /// An annotation of no kind above (Core Data's level 3 `count
        /// request … returned <n>`, a line the reader does not know).
        case other
    }

    // MARK: Reading

    /// The annotation `range` of `text` (after `annotation: `).
    package init(_ text: SQLDebugLogBytes, _ range: Range<Int>) {
        typealias G = SQLDebugLogGrammar
        self.range = range
        var hasValues = false
        if text.starts(range, with: G.boundIntarrayAnnotation) || text.starts(range, with: G.boundIntarray) {
            phrase = range.lowerBound..<(range.lowerBound + G.boundIntarray.utf8CodeUnitCount)
            kind = .boundIntarray(values: phrase.upperBound..<range.upperBound)
        } else if text.starts(range, with: G.sqlExecutionTime) {
            phrase = range.lowerBound..<(range.lowerBound + G.sqlExecutionTime.utf8CodeUnitCount)
            kind = .statementTime
        } else if text.starts(range, with: G.sqlConnectionFetchTime) {
            phrase = range.lowerBound..<(range.lowerBound + G.sqlConnectionFetchTime.utf8CodeUnitCount)
            kind = .connectionFetchTime(.read(text, phrase.upperBound..<range.upperBound))
        } else if text.starts(range, with: G.totalCountRequestExecutionTime) {
            phrase = range.lowerBound..<(range.lowerBound + G.totalCountRequestExecutionTime.utf8CodeUnitCount)
            kind = .countRequestTime(.read(text, phrase.upperBound..<range.upperBound))
        } else if text.starts(range, with: G.totalFetchExecutionTime) {
            phrase = range.lowerBound..<(range.lowerBound + G.totalFetchExecutionTime.utf8CodeUnitCount)
            kind = .totalFetchTime(.read(text, phrase.upperBound..<range.upperBound), rows: text.number(after: G.forWord, in: range))
        } else if let marker = Self.iteration(text, range) {
            phrase = marker
            kind = .iteration
        } else if let (returned, rows) = Self.fetchUsing(text, range) {
            phrase = returned
            kind = .fetchUsing(rows: rows)
            hasValues = text.find(G.withValuesColon, in: returned.upperBound..<range.upperBound) != nil
        } else if let found = text.find(G.faultFulfilledFrom, in: range) {
            phrase = found
            kind = .fault
        } else if let found = text.find(G.relationshipFault, in: range) {
            phrase = found
            kind = .relationshipFault
        } else if let found = text.find(G.prefetchingWithKey, in: range) {
            phrase = found
            kind = .prefetchingWithKey(key: found.upperBound..<text.firstIndex(of: UInt8(ascii: "'"), in: found.upperBound..<range.upperBound))
        } else if let at = text.findLast(G.at, in: range) {
            phrase = at
            kind = Self.operation(text, range)
        } else {
            phrase = range.upperBound..<range.upperBound
            kind = .other
        }
        // An iteration's line ends with its scenario's name, which may end any way.
        isWhole = kind == .iteration || SQLDebugLogContinuation.isComplete(text, range) || text.find(G.purpose, in: range) != nil
            || hasValues
    }

    /// The annotation whose text is all of `text` (one held for a line
    /// and joined to the next).
    package init(_ text: SQLDebugLogBytes) {
        self.init(text, text.all)
    }

    /// `fetch using …`: the count is the last ` returned ` before the
    /// values (level 3 prints the objects' values after it, and a value may
    /// hold ` returned `).
    private static func fetchUsing(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> (returned: Range<Int>, rows: Int)? {
        typealias G = SQLDebugLogGrammar
        guard text.starts(range, with: G.fetchUsing) else { return nil }
        let counted = text.find(G.rowsWithValues, in: range).map { range.lowerBound..<$0.lowerBound } ?? range
        guard let returned = text.findLast(G.returned, in: counted),
              let rows = text.int(returned.upperBound..<text.digitsEnd(from: returned.upperBound, to: range.upperBound))
        else { return nil }
        return (returned, rows)
    }

    /// The phrase of an iteration's line (` begins: `, ` ends: `): after
    /// `iteration ` and a whole number.
    private static func iteration(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> Range<Int>? {
        typealias G = SQLDebugLogGrammar
        guard text.starts(range, with: G.iteration) else { return nil }
        var start = range.lowerBound + G.iteration.utf8CodeUnitCount
        if start < range.upperBound, text[start] == UInt8(ascii: "-") { start += 1 }
        let end = text.digitsEnd(from: start, to: range.upperBound)
        guard end > start else { return nil }
        let rest = end..<range.upperBound
        for phrase in [G.begins, G.ends] where text.starts(rest, with: phrase) {
            return end..<(end + phrase.utf8CodeUnitCount)
        }
        return nil
    }

    /// The kind of a Faultline operation (which ends with ` at <site>`).
    private static func operation(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> Kind {
        typealias G = SQLDebugLogGrammar
        if text.starts(range, with: G.fetchOf) { return text.find(G.colon, in: range) != nil ? .fetch : .other }
        if text.starts(range, with: G.countOf) { return .count }
        if text.starts(range, with: G.saveOfContext) {
            if text.find(G.failedIn, in: (range.lowerBound + G.saveOfContext.utf8CodeUnitCount)..<range.upperBound) != nil { return .saveFailed }
            return text.find(G.colon, in: range) != nil ? .save : .other
        }
        if text.starts(range, with: G.batch) { return .batch }
        if text.starts(range, with: G.fetchUseOf), text.find(G.inContext, in: range) != nil { return .fetchUsage }
        if text.starts(range, with: G.prefetchOf), text.find(G.inContext, in: range) != nil, text.number(after: G.prefetchedFor, in: range) != nil,
           text.number(after: G.readFor, in: range) != nil
        {
            return .prefetchUsage
        }
        return .other
    }

    // MARK: Fields

    /// `sql execution time: <t>s[, rows: <n>, changed: <n>[, scanned:
    /// <n>][, sorts: <n>], purpose: <purpose>]`.
    package struct StatementTime: Equatable, Sendable {
        package var time: SQLDebugLogTime
        package var rows: Int?
        package var changed: Int?
        /// SQLite's full-scan steps and sorts (0 when not given).
        package var scanned = 0
        package var sorts = 0
        /// Level 1's digest of the bound values (``SQLDebugLogValuesDigest``), as written.
        package var valuesDigest: String?
        package var purpose: Range<Int>?

        /// The figures of `annotation` (``Kind/statementTime``), read field
        /// after field as Faultline writes them; any other text (Core
        /// Data's time alone, a line edited) by searching for each field.
        /// The two agree: before `purpose` only these names and numbers
        /// stand (the time is digits, points, an exponent and its unit), so
        /// each name's first occurrence is its field, and a field the line
        /// lacks is searched for in the purpose.
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            // The time after the phrase's colon.
            time = .read(text, annotation.phrase.upperBound..<range.upperBound)
            var index = annotation.phrase.upperBound
            let isTimeByte = { (byte: UInt8) in
                byte &- 0x30 < 10 || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "s") || byte == UInt8(ascii: "#")
            }
            while index < range.upperBound, isTimeByte(text[index]) { index += 1 }
            // The time alone (Core Data's lines): no field. The searches
            // below find none there: each name holds `: `, and no time
            // does; the phrase's own colon follows `time`, no name.
            guard index < range.upperBound else { return }
            /// The digits of `, <name>: <digits>` at `index`, moving past them.
            func field(_ name: StaticString) -> Range<Int>? {
                let separator = G.figureSeparator.utf8CodeUnitCount
                guard text.starts(index..<range.upperBound, with: G.figureSeparator),
                      text.starts((index + separator)..<range.upperBound, with: name)
                else { return nil }
                let start = index + separator + name.utf8CodeUnitCount
                index = text.digitsEnd(from: start, to: range.upperBound)
                return start..<index
            }
            if let rows = field(G.rows), let changed = field(G.changed) {
                let scanned = field(G.scanned)
                let sorts = field(G.sorts)
                let values = field(G.values)
                if text.starts(index..<range.upperBound, with: G.purpose) {
                    self.valuesDigest = values.flatMap { text.string($0).isEmpty ? nil : text.string($0) }
                    let purpose = (index + G.purpose.utf8CodeUnitCount)..<range.upperBound
                    self.rows = text.int(rows)
                    self.changed = text.int(changed)
                    self.scanned = (scanned.map { text.int($0) } ?? text.number(after: G.scanned, in: purpose)) ?? 0
                    self.sorts = (sorts.map { text.int($0) } ?? text.number(after: G.sorts, in: purpose)) ?? 0
                    self.purpose = purpose
                    return
                }
            }
            rows = text.number(after: G.rows, in: range)
            changed = text.number(after: G.changed, in: range)
            scanned = text.number(after: G.scanned, in: range) ?? 0
            sorts = text.number(after: G.sorts, in: range) ?? 0
            purpose = text.find(G.purpose, in: range).map { $0.upperBound..<range.upperBound }
        }
    }

    /// `fetch using NSSQLiteStatement <0x…> on entity '<E>' with sql text
    /// '<sql>' returned <n> rows[ with values: (…]`.
    package struct FetchUsing: Equatable, Sendable {
        package var entity: Range<Int>?
        /// The statement, trimmed; nil when empty or not given.
        package var sql: Range<Int>?
        package var rows: Int
        /// What follows `with values: ` on the line (level 3); nil at level 2.
        package var values: Range<Int>?

        /// The fields of `annotation` (``Kind/fetchUsing(rows:)``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let returned = annotation.phrase
            if case .fetchUsing(let rows) = annotation.kind { self.rows = rows } else { rows = 0 }
            let head = range.lowerBound..<returned.lowerBound
            if let found = text.find(G.onEntity, in: head) {
                entity = found.upperBound..<text.firstIndex(of: UInt8(ascii: "'"), in: found.upperBound..<head.upperBound)
            }
            if let found = text.find(G.withSQLText, in: head) {
                // The text runs to the quote before ` returned` (the SQL may quote literals).
                var end = head.upperBound
                if end > found.upperBound, text[end - 1] == UInt8(ascii: "'") { end -= 1 }
                let sql = text.trimmingSpacesAndReturns(found.upperBound..<end)
                if !sql.isEmpty { self.sql = sql }
            }
            if let found = text.find(G.withValuesColon, in: returned.upperBound..<range.upperBound) {
                values = found.upperBound..<range.upperBound
            }
        }
    }

    /// `fault fulfilled from <source> for <object> in <t>s[ (<lazy load>)]`
    /// (Faultline), `fault fulfilled from database for : <id> <uri>` (Core Data).
    package struct Fault: Equatable, Sendable {
        /// The word after the phrase: `database`, `context`, else the row cache.
        package var source: FaultSource
        /// The entity: the name before the object's last `/p` (in
        /// `Entity/p42` or a URI); nil when the line names no object.
        package var entity: Range<Int>?
        /// The key after that `/p`; 0 when there is none.
        package var primaryKey: Int64
        /// Whether the line names no object (no `Entity/p<key>`, no
        /// `x-coredata:` URI): Core Data may print its URI on the next line.
        package var awaitsObject: Bool
        /// The time after ` in ` (0 without one).
        package var nanoseconds: UInt64
        /// The text inside the ` (…)` that ends the line: a lazy load's
        /// reason, origin and reading line (``SQLDebugLogLazyLoad``).
        package var lazyLoad: Range<Int>?

        /// The fields of `annotation` (``Kind/fault``): the object is named
        /// before what a lazy load adds to the line.
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let rest = annotation.phrase.upperBound..<range.upperBound
            let object = text.find(G.lazyLoadOpen, in: rest).map { rest.lowerBound..<$0.lowerBound } ?? rest
            source = text.starts(rest, with: G.database) ? .database : text.starts(rest, with: G.context) ? .context : .rowCache
            entity = SQLDebugLogAnnotation.entity(text, object)
            primaryKey = SQLDebugLogAnnotation.primaryKey(text, object)
            awaitsObject = entity == nil && text.find(G.objectURI, in: rest) == nil
            nanoseconds = SQLDebugLogAnnotation.nanoseconds(text, range)
            lazyLoad = SQLDebugLogAnnotation.lazyLoad(text, range)
        }
    }

    /// `to-many relationship fault "<name>" for <object> fulfilled from
    /// <source>: <n> <Destination> in <t>s[ (<lazy load>)]` (Faultline), `…
    /// fulfilled from database.  Got <n> rows` (Core Data).
    package struct RelationshipFault: Equatable, Sendable {
        package var name: Range<Int>
        /// Whether the line says only the row cache served it.
        package var fromRowCache: Bool
        /// The entity of the object whose relationship it is.
        package var entity: Range<Int>?
        /// Faultline's destinations: their count and entity.
        package var destinationCount: Int?
        package var destinationEntity: Range<Int>?
        /// Core Data's rows (`Got <n> rows`).
        package var got: Int?
        package var nanoseconds: UInt64
        package var lazyLoad: Range<Int>?

        /// The fields of `annotation` (``Kind/relationshipFault``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let start = annotation.phrase.upperBound
            name = start..<text.firstIndex(of: UInt8(ascii: "\""), in: start..<range.upperBound)
            fromRowCache = text.find(G.fromDatabase, in: range) == nil && text.find(G.fromRowCache, in: range) != nil
            let head = text.find(G.fulfilled, in: range).map { range.lowerBound..<$0.lowerBound } ?? range
            entity = SQLDebugLogAnnotation.entity(text, head)
            got = text.number(after: G.got, in: range)
            nanoseconds = SQLDebugLogAnnotation.nanoseconds(text, range)
            lazyLoad = SQLDebugLogAnnotation.lazyLoad(text, range)
            // Faultline: `…: 3 Comment in 0.000020s`; Core Data names no destination.
            if let fulfilled = text.find(G.fulfilledFrom, in: range), let colon = text.find(G.colon, in: fulfilled.upperBound..<range.upperBound) {
                let words = text.split(colon.upperBound..<range.upperBound, separator: 0x20, maxSplits: 2)
                if words.count >= 2, let count = text.int(words[0]) {
                    destinationCount = count
                    destinationEntity = words[1]
                }
            }
        }
    }

    /// `fetch of <Entity>[ where <predicate>][ sorted by <keys>][
    /// prefetching <paths>]: <n> <result type>[ with values] in <t>s at <site>`.
    package struct Fetch: Equatable, Sendable {
        package var entity: Range<Int>
        package var predicate: Range<Int>?
        package var sort: Range<Int>?
        package var prefetch: Range<Int>?
        /// The key paths whose lazy loads the fetch intends.
        package var intending: Range<Int>?
        /// The objects' count and result type (`objects`, `ids`,
        /// `dictionaries`); nil when the result does not read so.
        package var count: Int?
        package var resultType: Range<Int>?
        /// `with values`: objects not returned as faults.
        package var withValues = false
        package var time = SQLDebugLogTime.unknown
        package var site: SQLDebugLogCallSite

        /// The fields of `annotation` (``Kind/fetch``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let operation = SQLDebugLogAnnotation.Operation(annotation, in: text, after: G.fetchOf)
            let head = operation.head
            site = operation.site
            entity = operation.entity
            var rest = operation.rest
            if let found = text.findLast(G.intending, in: rest) {
                intending = found.upperBound..<rest.upperBound
                rest = rest.lowerBound..<found.lowerBound
            }
            if let found = text.findLast(G.prefetching, in: rest) {
                prefetch = found.upperBound..<rest.upperBound
                rest = rest.lowerBound..<found.lowerBound
            }
            if let found = text.findLast(G.sortedBy, in: rest) {
                sort = found.upperBound..<rest.upperBound
                rest = rest.lowerBound..<found.lowerBound
            }
            predicate = SQLDebugLogAnnotation.Operation.predicate(text, rest)
            if let (result, time) = SQLDebugLogAnnotation.result(text, head) {
                self.time = time
                let words = text.split(result, separator: 0x20, maxSplits: 3)
                if words.count >= 2, let count = text.int(words[0]) {
                    self.count = count
                    resultType = words[1]
                }
                withValues = text.ends(result, with: G.withValues)
            }
        }
    }

    /// `count of <Entity>[ where <predicate>]: <n> in <t>s at <site>`.
    package struct Count: Equatable, Sendable {
        package var entity: Range<Int>
        package var predicate: Range<Int>?
        package var count: Int?
        package var time = SQLDebugLogTime.unknown
        package var site: SQLDebugLogCallSite

        /// The fields of `annotation` (``Kind/count``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            let operation = SQLDebugLogAnnotation.Operation(annotation, in: text, after: SQLDebugLogGrammar.countOf)
            site = operation.site
            entity = operation.entity
            predicate = SQLDebugLogAnnotation.Operation.predicate(text, operation.rest)
            if let (result, time) = SQLDebugLogAnnotation.result(text, operation.head) {
                self.time = time
                count = text.int(result)
            }
        }
    }

    /// `save of context <name>: <i> inserted, <u> updated, <d> deleted in <t>s at <site>`.
    package struct Save: Equatable, Sendable {
        package var context: Range<Int>
        /// The first three numbers after the colon (each word's digits read
        /// together); nil when there are fewer.
        package var inserted: Int?
        package var updated: Int?
        package var deleted: Int?
        package var time: SQLDebugLogTime
        package var site: SQLDebugLogCallSite

        /// The fields of `annotation` (``Kind/save``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let head = range.lowerBound..<annotation.phrase.lowerBound
            site = SQLDebugLogCallSite(text, annotation.phrase.upperBound..<range.upperBound)
            let colon = text.find(G.colon, in: range) ?? range.upperBound..<range.upperBound
            context = (range.lowerBound + G.saveOfContext.utf8CodeUnitCount)..<colon.lowerBound
            time = SQLDebugLogAnnotation.result(text, head)?.time ?? .unknown
            // The numbers of the words after the colon, each word's digits read together.
            var numbers: [Int] = []
            for word in text.split(colon.upperBound..<range.upperBound, separator: 0x20) where numbers.count < 3 {
                var value = 0
                var digits = 0
                var overflow = false
                for index in word where text[index] &- 0x30 < 10 {
                    let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
                    let (next, overflowB) = times.addingReportingOverflow(Int(text[index] &- 0x30))
                    overflow = overflow || overflowA || overflowB
                    value = next
                    digits += 1
                }
                if digits > 0, !overflow { numbers.append(value) }
            }
            if numbers.count == 3 { (inserted, updated, deleted) = (numbers[0], numbers[1], numbers[2]) }
        }
    }

    /// `save of context <name> failed in <t>s at <site>: <error>`.
    package struct SaveFailure: Equatable, Sendable {
        package var context: Range<Int>
        package var time: SQLDebugLogTime
        package var site: SQLDebugLogCallSite
        package var error: Range<Int>

        /// The fields of `annotation` (``Kind/saveFailed``): the site is the
        /// first after the time (the error may hold ` at `).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let name = range.lowerBound + G.saveOfContext.utf8CodeUnitCount
            let failed = text.find(G.failedIn, in: name..<range.upperBound) ?? range.upperBound..<range.upperBound
            let siteAt = text.find(G.at, in: failed.upperBound..<range.upperBound)
            let siteStart = siteAt?.upperBound ?? range.upperBound
            let errorColon = text.find(G.colon, in: siteStart..<range.upperBound)
            context = name..<failed.lowerBound
            time = .read(text, failed.upperBound..<(siteAt?.lowerBound ?? range.upperBound))
            site = SQLDebugLogCallSite(text, siteStart..<(errorColon?.lowerBound ?? range.upperBound))
            error = (errorColon?.upperBound ?? range.upperBound)..<range.upperBound
        }
    }

    /// `batch <kind> of <Entity>: <n> rows in <t>s at <site>`.
    package struct Batch: Equatable, Sendable {
        package var kind: Range<Int>?
        package var entity: Range<Int>?
        package var rows: Int?
        package var time = SQLDebugLogTime.unknown
        package var site: SQLDebugLogCallSite

        /// The fields of `annotation` (``Kind/batch``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let head = range.lowerBound..<annotation.phrase.lowerBound
            site = SQLDebugLogCallSite(text, annotation.phrase.upperBound..<range.upperBound)
            let start = range.lowerBound + G.batch.utf8CodeUnitCount
            let description = start..<(text.findLast(G.colon, in: head)?.lowerBound ?? head.upperBound)
            if let of = text.find(G.of, in: description) {
                kind = start..<of.lowerBound
                entity = of.upperBound..<description.upperBound
            }
            if let (result, time) = SQLDebugLogAnnotation.result(text, head) {
                self.time = time
                rows = text.int(result.lowerBound..<text.digitsEnd(from: result.lowerBound, to: result.upperBound))
            }
        }
    }

    /// `prefetch of <Entity>.<relationship> in context <name>: prefetched
    /// for <n> objects, read for <n>, at <site>`.
    package struct PrefetchUsage: Equatable, Sendable {
        package var relationship: Range<Int>
        package var context: Range<Int>
        package var prefetched: Int
        package var read: Int
        package var site: SQLDebugLogCallSite

        /// The fields of `annotation` (``Kind/prefetchUsage``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let inContext = text.find(G.inContext, in: range) ?? range.upperBound..<range.upperBound
            relationship = (range.lowerBound + G.prefetchOf.utf8CodeUnitCount)..<inContext.lowerBound
            context = inContext.upperBound..<text.firstIndex(of: UInt8(ascii: ":"), in: inContext.upperBound..<range.upperBound)
            prefetched = text.number(after: G.prefetchedFor, in: range) ?? 0
            read = text.number(after: G.readFor, in: range) ?? 0
            site = SQLDebugLogCallSite(text, annotation.phrase.upperBound..<range.upperBound)
        }
    }

    /// `iteration <n> begins: <scenario>`, `iteration <n> ends: <scenario>`.
    package struct Iteration: Equatable, Sendable {
        /// The iteration's number (warm-up ones 0 and below).
        package var number: Int
        /// Whether it begins (or ends).
        package var begins: Bool
        package var scenario: Range<Int>

        /// The fields of `annotation` (``Kind/iteration``).
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let digits = (annotation.range.lowerBound + G.iteration.utf8CodeUnitCount)..<annotation.phrase.lowerBound
            let negative = text[digits.lowerBound] == UInt8(ascii: "-")
            let magnitude = text.int((negative ? digits.lowerBound + 1 : digits.lowerBound)..<digits.upperBound) ?? 0
            number = negative ? -magnitude : magnitude
            begins = text.starts(annotation.phrase, with: G.begins)
            scenario = annotation.phrase.upperBound..<annotation.range.upperBound
        }
    }

    // MARK: Parts

    /// An operation's entity: the description's first word (up to a space or colon).
    private static func entityName(_ text: SQLDebugLogBytes, _ description: Range<Int>) -> Range<Int> {
        var end = description.lowerBound
        while end < description.upperBound, text[end] != 0x20, text[end] != UInt8(ascii: ":") { end += 1 }
        return description.lowerBound..<end
    }

    /// An operation's result and time: `: <result> in <t>s` ending `head`
    /// (the text before ` at <site>`); nil without the colon.
    private static func result(_ text: SQLDebugLogBytes, _ head: Range<Int>) -> (range: Range<Int>, time: SQLDebugLogTime)? {
        typealias G = SQLDebugLogGrammar
        guard let colon = text.findLast(G.colon, in: head) else { return nil }
        let after = colon.upperBound..<head.upperBound
        guard let inTime = text.findLast(G.inTime, in: after) else { return (after, .unknown) }
        return (colon.upperBound..<inTime.lowerBound, .read(text, inTime.upperBound..<head.upperBound))
    }
    /// `Entity` from `Entity/p42` or `x-coredata://…/Entity/p42`: the name
    /// before the last `/p` (ASCII letters, digits and `_`, and any byte
    /// beyond ASCII: names in other scripts).
    package static func entity(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> Range<Int>? {
        var slash = range.upperBound - 2
        while slash > range.lowerBound, !(text[slash] == UInt8(ascii: "/") && text[slash + 1] == UInt8(ascii: "p")) { slash -= 1 }
        guard slash > range.lowerBound else { return nil }
        var start = slash
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        while start > range.lowerBound, isNameByte(text[start - 1]) { start -= 1 }
        return start == slash ? nil : start..<slash
    }

    /// `42` of `Entity/p42` (or a URI ending so); 0 when there is none.
    package static func primaryKey(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> Int64 {
        guard let slash = text.findLast(SQLDebugLogGrammar.primaryKey, in: range) else { return 0 }
        return text.int(slash.upperBound..<text.digitsEnd(from: slash.upperBound, to: range.upperBound)).map(Int64.init) ?? 0
    }

    /// The time after the first ` in 0`, else the first ` in 1` (`in
    /// 0.000012s`), in nanoseconds; 0 without one. Found by `memchr` for
    /// the phrase's second byte (rarer than a space).
    package static func nanoseconds(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> UInt64 {
        let phrase = SQLDebugLogGrammar.inTime
        let length = phrase.utf8CodeUnitCount
        guard let base = text.bytes.baseAddress else { return 0 }
        var (zero, one): (Int?, Int?) = (nil, nil)
        var offset = range.lowerBound + 1
        while offset + length <= range.upperBound,
              let hit = memchr(base + offset, Int32(phrase.utf8Start[1]), range.upperBound - (length - 1) - offset)
        {
            let start = base.distance(to: UnsafeRawPointer(hit)) - 1
            if memcmp(base + start, phrase.utf8Start, length) == 0 {
                if text[start + length] == UInt8(ascii: "0") {
                    zero = start
                    break
                }
                if text[start + length] == UInt8(ascii: "1"), one == nil { one = start }
            }
            offset = start + 2
        }
        guard let start = zero ?? one else { return 0 }
        let digits = start + length
        var end = digits
        while end < range.upperBound, text[end] &- 0x30 < 10 || text[end] == UInt8(ascii: ".") { end += 1 }
        guard let seconds = text.double(digits..<end), seconds.isFinite, seconds >= 0 else { return 0 }
        return UInt64(min(seconds, 1e9) * 1e9)
    }

    /// The text inside the ` (…)` that ends an annotation: its last ` (`
    /// to its last byte, a `)`.
    @inline(__always)
    private static func lazyLoad(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> Range<Int>? {
        guard !range.isEmpty, text[range.upperBound - 1] == UInt8(ascii: ")"),
              let open = text.findLast(SQLDebugLogGrammar.lazyLoadOpen, in: range)
        else { return nil }
        return open.upperBound..<(range.upperBound - 1)
    }
}

/// What a statement's annotation says of its time.
package enum SQLDebugLogTime: Equatable, Sendable {
    /// Seconds, finite and 0 or more.
    case seconds(Double)
    /// No time, or one masked as `#.######s` (the golden files).
    case unknown
    /// A time that is no finite number of seconds: `inf`, `nan`, a number
    /// too large for a `Double`, a negative one, or not a number.
    case notFinite

    /// The time after the first `:` of `range` (`…time: 0.0021s`, `…time: inf`).
    package static func afterColon(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> SQLDebugLogTime {
        let colon = text.firstIndex(of: UInt8(ascii: ":"), in: range)
        guard colon < range.upperBound else { return .unknown }
        return read(text, (colon + 1)..<range.upperBound)
    }

    /// The time `range` starts with, after spaces: the number it starts
    /// with (digits and a point, an exponent), whatever unit follows; a
    /// word (`inf`, `nan`) or a sign is no finite time.
    package static func read(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> SQLDebugLogTime {
        var start = range.lowerBound
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
        guard let seconds = text.double(start..<end), seconds.isFinite else { return .notFinite }
        return .seconds(seconds)
    }
}

/// A call site as a log line names it: `File.swift:42`, read up to a `)`
/// or `;` (the last colon splits file and line).
package struct SQLDebugLogCallSite: Equatable, Sendable {
    package var file: Range<Int>
    /// The line; 0 when the text has no line number after its last colon.
    package var line: Int

    package init(_ text: SQLDebugLogBytes, _ range: Range<Int>) {
        let end = min(text.firstIndex(of: UInt8(ascii: ")"), in: range), text.firstIndex(of: UInt8(ascii: ";"), in: range))
        let trimmed = range.lowerBound..<end
        guard let colon = text.lastIndex(of: UInt8(ascii: ":"), in: trimmed),
              let line = text.int((colon + 1)..<text.digitsEnd(from: colon + 1, to: end))
        else {
            self.file = trimmed
            self.line = 0
            return
        }
        self.file = range.lowerBound..<colon
        self.line = line
    }
}

/// What Faultline's log adds to a lazy load's line, inside its ` (…)`:
/// `absent; from fetch 12 of Post at Blog/Blog.swift:70 through author;
/// read at Blog/Blog.swift:73`.
package struct SQLDebugLogLazyLoad: Equatable, Sendable {
    /// Why the row cache missed.
    package var reason: CacheMissReason?
    /// Where the object came from: the fetch's run, entity and call site,
    /// and the key path from its objects (nil: the fetch's own objects).
    package var execution: UInt64?
    package var fetchEntity: Range<Int>?
    package var fetchSite: SQLDebugLogCallSite?
    package var keyPath: Range<Int>?
    /// The line that read the object.
    package var read: SQLDebugLogCallSite?
    /// The engine's work, for a load it made for its own bookkeeping.
    package var engineWork: EngineWork?

    /// The parts of `range` (``SQLDebugLogAnnotation/Fault/lazyLoad``),
    /// separated by `;`; a part the grammar does not know is skipped.
    package init(_ text: SQLDebugLogBytes, _ range: Range<Int>) {
        typealias G = SQLDebugLogGrammar
        text.forEachPart(range, separator: UInt8(ascii: ";")) { part in
            var start = part.lowerBound
            while start < part.upperBound, text[start] == 0x20 { start += 1 }
            let item = start..<part.upperBound
            if text.starts(item, with: G.readAt) {
                read = SQLDebugLogCallSite(text, (item.lowerBound + G.readAt.utf8CodeUnitCount)..<item.upperBound)
            } else if text.starts(item, with: G.engine) {
                engineWork = EngineWork(rawValue: text.string((item.lowerBound + G.engine.utf8CodeUnitCount)..<item.upperBound))
            } else if text.starts(item, with: G.fromFetch) {
                // `12 of Post at Site[ through key.path]`: the first five words.
                var words = (count: 0, parts: (0..<0, 0..<0, 0..<0, 0..<0, 0..<0))
                text.forEachPart((item.lowerBound + G.fromFetch.utf8CodeUnitCount)..<item.upperBound, separator: 0x20, maxSplits: 4) { part in
                    switch words.count {
                    case 0: words.parts.0 = part
                    case 1: words.parts.1 = part
                    case 2: words.parts.2 = part
                    case 3: words.parts.3 = part
                    default: words.parts.4 = part
                    }
                    words.count += 1
                }
                guard words.count >= 5, let execution = UInt64(text.string(words.parts.0)), text.equals(words.parts.1, word: G.of),
                      text.equals(words.parts.3, word: G.at)
                else { return }
                let rest = words.parts.4
                let through = text.find(G.through, in: rest)
                self.execution = execution
                fetchEntity = words.parts.2
                fetchSite = SQLDebugLogCallSite(text, through.map { rest.lowerBound..<$0.lowerBound } ?? rest)
                keyPath = through.map { $0.upperBound..<rest.upperBound }
            } else if let word = CacheMissReason(rawValue: text.string(item)) {
                reason = word
            }
        }
    }
}

extension SQLDebugLogAnnotation {
    /// What a fetch's and a count's lines share:
    /// `<prefix><Entity>…: <result> in <t>s at <site>`.
    struct Operation {
        /// Up to the phrase before the site (` at `).
        let head: Range<Int>
        let site: SQLDebugLogCallSite
        let entity: Range<Int>
        /// After the entity, up to the colon before the result.
        let rest: Range<Int>

        init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes, after prefix: StaticString) {
            let range = annotation.range
            head = range.lowerBound..<annotation.phrase.lowerBound
            site = SQLDebugLogCallSite(text, annotation.phrase.upperBound..<range.upperBound)
            let end = text.findLast(SQLDebugLogGrammar.colon, in: head)?.lowerBound ?? head.upperBound
            let description = (range.lowerBound + prefix.utf8CodeUnitCount)..<end
            entity = SQLDebugLogAnnotation.entityName(text, description)
            rest = entity.upperBound..<description.upperBound
        }

        /// ` where <predicate>` at the start of `rest`.
        static func predicate(_ text: SQLDebugLogBytes, _ rest: Range<Int>) -> Range<Int>? {
            guard text.starts(rest, with: SQLDebugLogGrammar.whereClause) else { return nil }
            return (rest.lowerBound + SQLDebugLogGrammar.whereClause.utf8CodeUnitCount)..<rest.upperBound
        }
    }
}
