import Foundation
import Probes
import Synchronization
import Testing
@testable import ObjectGraph

/// Foundation's `#Predicate` and `SortDescriptor` in fetch requests: each
/// form runs exactly as its format-string twin (the same tree, SQL, bound
/// values and rows, in SQL and in memory), and a form with no translation
/// is an error at the fetch, never a filter left out.
@Suite struct TypedPredicateTests {
    struct Expected: Codable, Equatable {
        var source: String
        var format: String
        var canonical: String
        var sql: String
        var arguments: [String]
    }

    private static let goldenFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/typed-predicate-table.json")

    /// The SELECT statements the log holds, and forgets them all.
    private static func selects(_ log: StatementLog) -> [StatementLog.Entry] {
        log.take().filter { $0.sql.hasPrefix("SELECT") }
    }

    /// Every row: the translation is the twin's tree (the same description,
    /// which parses back to it); a fetch of each runs one SELECT, the same
    /// for both, binding the same values (none spliced into the SQL), with
    /// the same statement facts for the insights, and returns the row's
    /// posts, sorted by the typed SortDescriptor as by the twin's SortKey;
    /// from the saved store and from unsaved inserts alike.
    @Test func eachFormRunsAsItsFormatStringTwin() throws {
        let (store, context, log) = try BlogFixtures.savedStore()
        let (_, pending, pendingLog) = try BlogFixtures.pendingStore()
        let rows = TypedPredicateTable.rows
        #expect(rows.count == 56)
        var produced: [Expected] = []
        for row in rows {
            let twin = try ObjectPredicate(format: row.format, arguments: row.arguments)
            let translated = try ObjectPredicate(row.typed)
            #expect(translated == twin, "\(row.source): \(translated) is not \(twin)")
            #expect(translated.description == twin.description, "\(row.source)")
            #expect(try ObjectPredicate(format: translated.description) == translated, "\(row.source): \(translated) does not parse back")

            let typedRequest = FetchRequest<Post>(predicate: row.typed, sortBy: [SortDescriptor(\.title)])
            let twinRequest = FetchRequest<Post>(predicate: twin, sortKeys: [SortKey("title")])
            #expect(typedRequest.translationError == nil)
            #expect(typedRequest.predicate == twin)
            #expect(typedRequest.sortKeys == [SortKey("title")])

            for (context, log, origin) in [(context, log, "SQL"), (pending, pendingLog, "memory")] {
                log.clear()
                let typedTitles = try context.perform { try context.fetch(typedRequest).map(\.title) }
                let typedSelects = Self.selects(log)
                let twinTitles = try context.perform { try context.fetch(twinRequest).map(\.title) }
                let twinSelects = Self.selects(log)
                #expect(typedTitles == row.titles, "\(row.source) (\(origin))")
                #expect(twinTitles == row.titles, "\(row.format) (\(origin))")
                #expect(typedSelects.count == 1, "\(row.source) (\(origin)): \(typedSelects.map(\.sql))")
                #expect(typedSelects.map(\.sql) == twinSelects.map(\.sql), "\(row.source) (\(origin))")
                #expect(typedSelects.map(\.arguments) == twinSelects.map(\.arguments), "\(row.source) (\(origin))")
                let count = try context.perform { try context.count(for: typedRequest) }
                #expect(count == row.titles.count, "\(row.source) (\(origin))")
            }

            // The insights read the statement's facts: the same for both.
            let post = try store.model.entity("Post")
            let typedFacts = try SelectQuery(typedRequest, entity: post, model: store.model, applyingLimits: true).facts
            #expect(typedFacts == (try SelectQuery(twinRequest, entity: post, model: store.model, applyingLimits: true).facts))

            // Values are bound, never spliced: no text value is in the SQL.
            let (sql, arguments) = try store.sql(for: typedRequest)
            for case .text(let text) in arguments where text.count > 1 {
                #expect(!sql.contains(text), "\(row.source): \(text) in \(sql)")
            }
            var builder = QueryBuilder(model: store.model, root: try store.model.entity("Post"))
            let condition = try builder.compile(translated)
            produced.append(Expected(
                source: row.source, format: row.format, canonical: translated.description, sql: condition,
                arguments: builder.arguments.map(\.description)))
        }
        if ProcessInfo.processInfo.environment["FAULTLINE_UPDATE_GOLDEN"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(produced).write(to: Self.goldenFile)
        }
        let expected = try JSONDecoder().decode([Expected].self, from: Data(contentsOf: Self.goldenFile))
        #expect(expected.count == produced.count)
        for (want, got) in zip(expected, produced) where want != got {
            Issue.record("\(want.source):\n expected \(want)\n got      \(got)")
        }
    }

    /// Unsaved changes to saved objects are evaluated in memory for typed
    /// requests as for their twins; `includesPendingChanges = false` reads
    /// the store only.
    @Test func pendingChangesAreEvaluatedInMemoryAlike() throws {
        let (_, context, _) = try BlogFixtures.savedStore()
        try context.perform {
            let all = try context.fetch(FetchRequest<Post>(sortBy: [SortDescriptor(\.title)]))
            let prefetching = try #require(all.first { $0.title == "Prefetching" })
            prefetching.likes = 30
            let caffe = try #require(all.first { $0.title == "caffè & café" })
            caffe.author = nil
            let inserted = try context.insert(Post.self)
            inserted.title = "Draft"
            inserted.likes = 21
            let limit: Int32 = 20
            var typed = FetchRequest<Post>(
                predicate: #Predicate { $0.likes > limit && $0.author != nil || $0.title == "Draft" }, sortBy: [SortDescriptor(\.title)])
            var twin = FetchRequest<Post>(
                predicate: try ObjectPredicate(format: "likes > 20 AND author != nil OR title == 'Draft'"), sortKeys: [SortKey("title")])
            #expect(typed.predicate == twin.predicate)
            #expect(try context.fetch(typed).map(\.title) == ["Draft", "Prefetching"])
            #expect(try context.fetch(twin).map(\.title) == ["Draft", "Prefetching"])
            #expect(try context.count(for: typed) == 2)
            typed.includesPendingChanges = false
            twin.includesPendingChanges = false
            #expect(try context.fetch(typed).map(\.title) == ["caffè & café"])
            #expect(try context.fetch(twin).map(\.title) == ["caffè & café"])
        }
    }

    /// The brief's example, with its exact SQL and bound values.
    @Test func theExampleCompilesToBoundValues() throws {
        let (store, context, log) = try BlogFixtures.savedStore()
        let name = "Ada"
        let request = FetchRequest<Post>(
            predicate: #Predicate { $0.likes > 10 && $0.author?.name == name }, sortBy: [SortDescriptor(\.title)])
        #expect(request.predicate?.description == "likes > 10 AND author.name == \"Ada\"")
        let titles = try context.perform { try context.fetch(request).map(\.title) }
        #expect(titles == ["Faults in Core Data"])
        let select = try #require(Self.selects(log).first)
        #expect(select.sql == "SELECT t0.pk, t0.\"title\", t0.\"body\", t0.\"published\", t0.\"likes\", t0.\"rating\", t0.\"author_pk\""
            + " FROM \"Post\" t0 LEFT JOIN \"Author\" t1 ON t1.pk = t0.\"author_pk\""
            + " WHERE (t0.\"likes\" > ? AND t1.\"name\" = ?) ORDER BY t0.\"title\"")
        #expect(select.arguments == [.integer(10), .text("Ada")])
        #expect(try store.sql(for: request).sql == select.sql)
    }

    /// Fetch events, the SQL debug log and so the insights print a typed
    /// predicate as its format-string twin.
    @Test func eventsAndTheSQLLogPrintTheTwin() throws {
        let recorder = Recorder(bufferCapacity: 100)
        let lines = Mutex<[String]>([])
        let sqlLog = SQLDebugLogSink(level: 1) { line in lines.withLock { $0.append(line) } }
        let store = try BlogFixtures.store { $0.sinks = [recorder, sqlLog] }
        let context = ObjectContext(store: store, name: "main")
        let tag = "swift"
        try context.perform {
            try BlogFixtures.insert(into: context)
            try context.save()
            recorder.reset()
            _ = try context.fetch(FetchRequest<Post>(
                predicate: #Predicate { $0.tags.contains { $0.name == tag } && !$0.published }, sortBy: [SortDescriptor(\.likes, order: .reverse)]))
        }
        let fetches = recorder.snapshot().events.compactMap { event -> FetchEvent? in
            if case .fetch(let fetch) = event { fetch } else { nil }
        }
        let twin = try ObjectPredicate(format: "ANY tags.name == %@ AND NOT published == YES", "swift")
        #expect(fetches.map(\.predicate) == [twin.description])
        #expect(fetches.map(\.predicate) == ["ANY tags.name == \"swift\" AND (NOT published == YES)"])
        #expect(fetches.map(\.sort) == ["likes DESC"])
        #expect(fetches.map(\.resultCount) == [1])
        let written = lines.withLock { $0 }.joined()
        #expect(written.contains("fetch of Post where ANY tags.name == \"swift\" AND (NOT published == YES) sorted by likes DESC"))
    }

    /// SortDescriptors become SortKeys: key, order, nil first when ascending.
    @Test func sortDescriptorsAreSortKeys() throws {
        let (_, context, _) = try BlogFixtures.savedStore()
        let byRating = FetchRequest<Post>(sortBy: [SortDescriptor(\.rating), SortDescriptor(\.likes, order: .reverse)])
        #expect(byRating.predicate == nil)
        #expect(byRating.sortKeys == [SortKey("rating"), SortKey("likes", ascending: false)])
        let titles = try context.perform { try context.fetch(byRating).map(\.title) }
        #expect(titles == ["Prefetching", "Untitled", "", "caffè & café", "Faults in Core Data", "Batch [*] requests"])
        let lexical = FetchRequest<Post>(sortBy: [SortDescriptor(\.title, comparator: .lexical, order: .reverse)])
        #expect(lexical.sortKeys == [SortKey("title", ascending: false)])
        #expect(try SortKey(SortDescriptor(\Author.age, order: .reverse)) == SortKey("age", ascending: false))
    }

    /// What has no translation: the request keeps the error, and every kind
    /// of fetch of it throws it before any SELECT runs.
    @Test(arguments: UnsupportedForms.cases)
    func untranslatableFormsFailAtTheFetch(form: UnsupportedForms.Case) throws {
        let (store, context, log) = try BlogFixtures.savedStore()
        let request = FetchRequest<Post>(predicate: form.predicate, sortBy: [SortDescriptor(\.title)])
        let expected = ObjectGraphError.invalidPredicate(form.message)
        #expect(request.translationError == expected, "\(form.source)")
        #expect(request.predicate == nil)
        #expect(request.sortKeys == [SortKey("title")])
        #expect(throws: expected) { try context.perform { try context.fetch(request) } }
        #expect(throws: expected) { try context.perform { try context.count(for: request) } }
        #expect(throws: expected) { try context.perform { try context.fetchObjectIDs(request) } }
        #expect(throws: expected) { try context.perform { try context.fetchDictionaries(request) } }
        #expect(throws: expected) { try store.sql(for: request) }
        #expect(throws: expected) { try ObjectPredicate(form.predicate) }
        #expect(Self.selects(log).isEmpty)
        // With pending changes, too: nothing is evaluated in memory instead.
        try context.perform {
            let post = try context.insert(Post.self)
            post.title = "Pending"
            #expect(throws: expected) { try context.fetch(request) }
        }
    }

    @Test func untranslatableSortDescriptorsFailAtTheFetch() throws {
        let (_, context, log) = try BlogFixtures.savedStore()
        let excerpt = \Post.excerpt
        let unnamed = FetchRequest<Post>(predicate: #Predicate { $0.likes > 10 }, sortBy: [SortDescriptor(excerpt)])
        let expected = ObjectGraphError.invalidFetchRequest(
            "SortDescriptor<Post>: Post.keyNames does not list its key path to String (\(excerpt.debugDescription));"
                + " key paths through several properties (\\.author?.name) are not named either")
        #expect(unnamed.translationError == expected)
        #expect(unnamed.predicate == (try ObjectPredicate(format: "likes > 10")))
        #expect(throws: expected) { try context.perform { try context.fetch(unnamed) } }
        let chained = \Post.author?.name
        let through = FetchRequest<Post>(sortBy: [SortDescriptor(chained)])
        #expect(through.translationError == .invalidFetchRequest(
            "SortDescriptor<Post>: Post.keyNames does not list its key path to Optional<String> (\(chained.debugDescription));"
                + " key paths through several properties (\\.author?.name) are not named either"))
        #expect(throws: through.translationError!) { try context.perform { try context.fetch(through) } }
        #expect(Self.selects(log).isEmpty)
        // Setting the sort keys replaces the typed sort and its error.
        var fixed = through
        fixed.sortKeys = [SortKey("author.name"), SortKey("title")]
        #expect(fixed.translationError == nil)
        let titles = try context.perform { try context.fetch(fixed).map(\.title) }
        #expect(titles == ["Untitled", "Batch [*] requests", "Faults in Core Data", "caffè & café", "", "Prefetching"])
    }

    /// Setting the predicate replaces the typed one and its error.
    @Test func settingThePredicateClearsTheError() throws {
        let (_, context, _) = try BlogFixtures.savedStore()
        var request = FetchRequest<Post>(predicate: #Predicate { $0.likes + 1 > 11 })
        #expect(request.translationError != nil)
        request.predicate = try ObjectPredicate(format: "likes > 10")
        #expect(request.translationError == nil)
        let count = try context.perform { try context.count(for: request) }
        #expect(count == 3)
    }

    /// A class that is not KeyPathNamed names no keys.
    @Test func keyPathsOfClassesThatNameNoKeysAreErrors() throws {
        let predicate = #Predicate<Selfie> { $0.rating > 3 }
        // Selfie is EntityNamed but not KeyPathNamed: no typed request can
        // be made for it, and the translation says why.
        var translator = PredicateTranslator(rootName: "Selfie", object: predicate.variable.key)
        let rating = (\Selfie.rating).debugDescription
        #expect(throws: ObjectGraphError.invalidPredicate(
            "#Predicate<Selfie>: Selfie is not KeyPathNamed, so its key path to Int16 (\(rating)) names no model key;"
                + " make Selfie KeyPathNamed")) { try translator.condition(predicate.expression) }
    }
}

/// `#Predicate` forms that have no ObjectPredicate equivalent, and the
/// error each gives.
enum UnsupportedForms {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let predicate: Predicate<Post>
        let message: String
        var testDescription: String { source }
    }

    static var cases: [Case] {
        let excerpt = (\Post.excerpt).debugDescription
        return [
            Case(
                source: "$0.likes + 1 > 11", predicate: #Predicate { $0.likes + 1 > 11 },
                message: "#Predicate<Post>: Arithmetic<KeyPath<Variable<Post>, Int32>, Value<Int32>> is not translated:"
                    + " arithmetic on keys has no ObjectPredicate equivalent; compute the value outside the predicate"),
            Case(
                source: "$0.author!.name == \"Ada\"", predicate: #Predicate { $0.author!.name == "Ada" },
                message: "#Predicate<Post>: ForcedUnwrap<KeyPath<Variable<Post>, Optional<Author>>, Author> is not translated:"
                    + " force unwrapping (!) of a key; use optional chaining (?.) or ?? with a default"),
            Case(
                source: "$0.excerpt == \"Fau\"", predicate: #Predicate { $0.excerpt == "Fau" },
                message: "#Predicate<Post>: Post.keyNames does not list its key path to String (\(excerpt));"
                    + " key paths through several properties (\\.author?.name) are not named either"),
            Case(
                source: "$0.title.count > 3", predicate: #Predicate { $0.title.count > 3 },
                message: "#Predicate<Post>: KeyPath<KeyPath<Variable<Post>, String>, Int> reads a string's count,"
                    + " which has no ObjectPredicate equivalent"),
            Case(
                source: "$0.comments.first?.likes == 1", predicate: #Predicate { $0.comments.first?.likes == 1 },
                message: "#Predicate<Post>: KeyPath<KeyPath<Variable<Post>, Array<Comment>>, Optional<Comment>> reads first or last"
                    + " of a collection, which has no ObjectPredicate equivalent"),
            Case(
                source: "post.comments.contains { $0.likes > post.likes }",
                predicate: #Predicate { post in post.comments.contains { $0.likes > post.likes } },
                message: "#Predicate<Post>: Variable<Post> reads the enclosing object inside a contains(where:), allSatisfy or filter test;"
                    + " such a test reads only its element (as SUBQUERY does)"),
            Case(
                source: "($0.published ? $0.likes : 0) > 5", predicate: #Predicate { ($0.published ? $0.likes : 0) > 5 },
                message: "#Predicate<Post>: Conditional<KeyPath<Variable<Post>, Bool>, KeyPath<Variable<Post>, Int32>, Value<Int32>>"
                    + " chooses between values; a conditional (?:) translates only when it chooses between conditions"),
            Case(
                source: "($0.body ?? $0.title) == \"x\"", predicate: #Predicate { ($0.body ?? $0.title) == "x" },
                message: "#Predicate<Post>: NilCoalesce<KeyPath<Variable<Post>, Optional<String>>, KeyPath<Variable<Post>, String>>"
                    + " gives the key body the default the key title; ?? translates with a key and a value, or a Bool? and false or true"),
            Case(
                source: "-$0.likes < -10", predicate: #Predicate { -$0.likes < -10 },
                message: "#Predicate<Post>: UnaryMinus<KeyPath<Variable<Post>, Int32>> is not translated:"
                    + " arithmetic on keys has no ObjectPredicate equivalent; compute the value outside the predicate"),
            Case(
                source: "$0.tags[0].name == \"swift\"", predicate: #Predicate { $0.tags[0].name == "swift" },
                message: "#Predicate<Post>: CollectionIndexSubscript<KeyPath<Variable<Post>, Array<Tag>>, Value<Int>> is not translated:"
                    + " subscripts have no ObjectPredicate equivalent"),
            Case(
                source: "$0.title.contains(/Core/)", predicate: #Predicate { $0.title.contains(/Core/) },
                message: "#Predicate<Post>: StringContainsRegex<KeyPath<Variable<Post>, String>, Value<PredicateRegex>> is not translated:"
                    + " use ObjectPredicate(format:) with MATCHES for regular expressions"),
            Case(
                source: "$0.title.utf8.count > 3", predicate: #Predicate { $0.title.utf8.count > 3 },
                message: "#Predicate<Post>: \((\String.utf8).debugDescription) reads a property of String, which is not a model key"),
            Case(
                source: "$0.author?.name.count == 3", predicate: #Predicate { $0.author?.name.count == 3 },
                message: "#Predicate<Post>: KeyPath<KeyPath<Variable<Author>, String>, Int> reads a string's count,"
                    + " which has no ObjectPredicate equivalent"),
        ]
    }
}
