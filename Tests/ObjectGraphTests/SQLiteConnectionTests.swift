import Foundation
import Synchronization
import Testing
@testable import ObjectGraph

@Suite struct SQLiteConnectionTests {
    @Test func bindsAndReadsEveryStorageClass() throws {
        let connection = try Connection(.memory)
        try connection.executeUntraced("CREATE TABLE t (a, b, c, d, e)")
        let values: [DatabaseValue] = [.null, .integer(-42), .real(2.5), .text("naïve 'quoted' \u{0}nul"), .blob(Data([0, 1, 254, 255]))]
        try connection.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", values)
        var read: [DatabaseValue] = []
        try connection.query("SELECT a, b, c, d, e FROM t") { row in read = (0..<5).map { row.value($0) } }
        #expect(read == values)
    }

    /// Literals and identifiers as the engine and its logs quote them read
    /// back as the same text in SQLite, quotes and combining marks included.
    @Test(arguments: ["plain", "it's", "''", "a\"b", "\"\u{301}x'\u{301}", "naïve ⌘ 'ü'", ""])
    func quotingRoundTripsThroughSQLite(text: String) throws {
        let connection = try Connection(.memory)
        var literal = ""
        try connection.query("SELECT \(DatabaseValue.text(text).description)") { literal = $0.string(0) }
        #expect(literal == text)
        guard !text.isEmpty else { return }
        try connection.executeUntraced("CREATE TABLE \(quoted(text)) (\(quoted(text + "!")))")
        try connection.run("INSERT INTO \(quoted(text)) VALUES (?)", [.integer(7)])
        var names: [String] = []
        try connection.query("SELECT name FROM pragma_table_info(?)", [.text(text)]) { names.append($0.string(0)) }
        #expect(names == [text + "!"])
    }

    @Test func cachesPreparedStatements() throws {
        let connection = try Connection(.memory)
        try connection.executeUntraced("CREATE TABLE t (a)")
        for value in 0..<10 { try connection.run("INSERT INTO t VALUES (?)", [.integer(Int64(value))]) }
        var count: Int64 = 0
        try connection.query("SELECT count(*) FROM t") { count = $0.int64(0) }
        #expect(count == 10)
        #expect(connection.cachedStatementCount == 2)
        #expect(try connection.cachedStatement("SELECT count(*) FROM t") === connection.cachedStatement("SELECT count(*) FROM t"))
    }

    /// The cache's front finds a statement by where its text is stored:
    /// whatever text a string holds, long or short, kept or changed after
    /// use, and however many texts share a place in the front, each gets
    /// the statement of its own text, prepared once.
    @Test func findsEachTextsOwnStatementByWhereItIsStored() throws {
        let connection = try Connection(.memory)
        var texts = (0..<100).map { "SELECT \($0) AS number_of_a_statement_long_enough" }
        texts += ["SELECT 1", "SELECT 2"]  // short: kept in the string value itself
        for _ in 0..<3 {
            for text in texts {
                let statement = try connection.cachedStatement(text)
                #expect(statement.sql == text)
                // Another string with the same text, stored elsewhere.
                #expect(try connection.cachedStatement(String(decoding: Array(text.utf8), as: UTF8.self)) === statement)
            }
        }
        #expect(connection.cachedStatementCount == texts.count)
        // A string changed in place after it was used, to a text of the
        // same length: the front kept its bytes, so the change is stored
        // anew and the new text gets its own statement.
        let first = try connection.cachedStatement(texts[0])
        var text = String(decoding: Array(texts[0].utf8), as: UTF8.self)
        #expect(try connection.cachedStatement(text) === first)
        text.replaceSubrange(text.range(of: "SELECT 0")!, with: "SELECT 9")
        let changed = try connection.cachedStatement(text)
        #expect(changed !== first && changed.sql == text)
        // Texts of one length made and dropped in turn: a freed text's
        // place is not taken by the next one while the front holds it.
        for number in 0..<50 {
            let made = String(decoding: Array("SELECT \(number % 10) AS number_of_a_statement_long_enough".utf8), as: UTF8.self)
            #expect(try connection.cachedStatement(made).sql == made)
        }
    }

    /// Texts that are equal as Swift strings but not as bytes (an accent
    /// as one scalar or as a combining one) are different statements to
    /// SQLite, and get one each.
    @Test func textsOfOtherBytesGetTheirOwnStatements() throws {
        let connection = try Connection(.memory)
        let composed = "SELECT 'caf\u{E9}' AS a_name_long_enough"
        let decomposed = "SELECT 'cafe\u{301}' AS a_name_long_enough"
        #expect(composed == decomposed)
        let one = try connection.cachedStatement(composed)
        let other = try connection.cachedStatement(decomposed)
        #expect(one !== other)
        #expect(Array(one.sql.utf8) == Array(composed.utf8) && Array(other.sql.utf8) == Array(decomposed.utf8))
        var values: [String] = []
        for text in [composed, decomposed] { try connection.query(text) { values.append($0.string(0)) } }
        #expect(values.map { Array($0.utf8) } == [Array(composed.utf8)[8..<13], Array(decomposed.utf8)[8..<14]].map(Array.init))
    }

    @Test func errorsCarryCodeSQLAndPath() throws {
        let path = Fixtures.storePath()
        let connection = try Connection(.file(path))
        try connection.executeUntraced("CREATE TABLE t (a UNIQUE)")
        try connection.run("INSERT INTO t VALUES (1)")
        let error = #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(1)]) }
        #expect(error?.codeName == "SQLITE_CONSTRAINT_UNIQUE")
        #expect(error?.resultCode == 19)
        #expect(error?.sql == "INSERT INTO t VALUES (?)")
        #expect(error?.path == path)
        #expect(error?.description.contains("UNIQUE constraint failed: t.a") == true)

        let syntax = #expect(throws: SQLiteError.self) { try connection.run("SELEKT 1") }
        #expect(syntax?.codeName == "SQLITE_ERROR")
        #expect(syntax?.sql == "SELEKT 1")

        let arity = #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (?)", []) }
        #expect(arity?.message == "statement expects 1 arguments, got 0")
    }

    @Test func hookSeesEveryExecutionWithCounters() throws {
        let log = StatementLog()
        let connection = try Connection(.memory)
        try connection.executeUntraced("CREATE TABLE t (a INTEGER, b TEXT)")
        connection.statementHook = log.hook
        try connection.beginImmediate()
        for value in 1...20 { try connection.run("INSERT INTO t VALUES (?, 'x')", [.integer(Int64(value))]) }
        try connection.commit()
        try connection.query("SELECT a FROM t WHERE a > ?", [.integer(5)]) { _ in }
        try connection.query("SELECT a FROM t ORDER BY b, a") { _ in }
        let entries = log.take()
        #expect(entries.count == 24)
        #expect(entries.first?.sql == "BEGIN IMMEDIATE")
        #expect(entries[1].rowsChanged == 1)
        #expect(entries[1].arguments == [.integer(1)])
        #expect(entries[21].sql == "COMMIT")
        let scan = entries[22]
        #expect(scan.rowsReturned == 15)
        #expect(scan.rowsChanged == 0)
        #expect(scan.fullScanSteps == 19)  // a full scan of 20 rows steps 19 times
        #expect(scan.vmSteps > 0)
    }

    /// The hook set on a connection is the one it keeps and calls, with
    /// the connection's path and the statement's start; set to nil, no
    /// statement reaches it.
    @Test func aHookSetOnAConnectionIsCalledUntilItIsRemoved() throws {
        let seen = Mutex<[(sql: String, path: String, start: UInt64)]>([])
        let connection = try Connection(.memory)
        connection.statementHook = { executed in seen.withLock { $0.append((executed.sql, executed.path, executed.start)) } }
        #expect(connection.statementHook != nil)
        try connection.run("SELECT 1")
        connection.statementHook = nil
        try connection.run("SELECT 2")
        let entries = seen.withLock { $0 }
        #expect(entries.map(\.sql) == ["SELECT 1"])
        #expect(entries.first?.path == connection.path && entries.first?.start ?? 0 > 0)
    }

    @Test func rollbackDiscardsTheTransaction() throws {
        let connection = try Connection(.memory)
        try connection.executeUntraced("CREATE TABLE t (a)")
        try connection.beginImmediate()
        try connection.run("INSERT INTO t VALUES (1)")
        #expect(connection.isInTransaction)
        connection.rollbackIfNeeded()
        #expect(!connection.isInTransaction)
        var count: Int64 = -1
        try connection.query("SELECT count(*) FROM t") { count = $0.int64(0) }
        #expect(count == 0)
    }

    @Test func fileConnectionsUseWALAndNormalSync() throws {
        let connection = try Connection(.file(Fixtures.storePath()))
        var mode = ""
        var sync: Int64 = -1
        try connection.query("PRAGMA journal_mode") { mode = $0.string(0) }
        try connection.query("PRAGMA synchronous") { sync = $0.int64(0) }
        #expect(mode == "wal")
        #expect(sync == 1)
    }
}
