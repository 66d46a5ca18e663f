import Testing
import Probes

@Suite struct SQLShapeTests {
    @Test(arguments: [
        ("SELECT * FROM t WHERE a = 5", "SELECT * FROM t WHERE a = ?"),
        ("SELECT  t0.pk,\n\tt0.\"name\"   FROM \"Person\" t0 ", "SELECT t0.pk, t0.\"name\" FROM \"Person\" t0"),
        ("SELECT * FROM t WHERE name = 'O''Brien' AND x = 1.5e-3", "SELECT * FROM t WHERE name = ? AND x = ?"),
        ("SELECT * FROM t WHERE pk IN (1, 2, 3, 4)", "SELECT * FROM t WHERE pk IN (…)"),
        ("SELECT * FROM t WHERE pk IN (?,?,?) AND b in (?)", "SELECT * FROM t WHERE pk IN (…) AND b in (…)"),
        ("SELECT * FROM t WHERE pk IN (SELECT value FROM json_each(?))", "SELECT * FROM t WHERE pk IN (SELECT value FROM json_each(?))"),
        ("SELECT * FROM t0 WHERE a = :name AND b = @x AND c = $y AND d = ?12", "SELECT * FROM t0 WHERE a = ? AND b = ? AND c = ? AND d = ?"),
        ("INSERT INTO t VALUES (x'00ff', X'AB', .5)", "INSERT INTO t VALUES (?, ?, ?)"),
        ("SELECT \"col 1\", [br acket], `tick` FROM t2", "SELECT \"col 1\", [br acket], `tick` FROM t2"),
        ("SELECT ZNAME FROM ZSELFIE WHERE Z_PK = 42 LIMIT 10", "SELECT ZNAME FROM ZSELFIE WHERE Z_PK = ? LIMIT ?"),
        // Lists are found in any case, inside a word too; one with other than values, or not closed, stays.
        ("SELECT min (?, 1) FROM t WHERE a IN (?, x) AND b In (?, ? ,?", "SELECT min (…) FROM t WHERE a IN (?, x) AND b In (?, ? ,?"),
        // A shape beyond ASCII folds its lists as one within it.
        ("SELECT \"naïve\" FROM t WHERE pk IN (1, 2) AND q = 'Zoë'", "SELECT \"naïve\" FROM t WHERE pk IN (…) AND q = ?"),
    ])
    func normalizes(sql: String, shape: String) {
        #expect(SQLShape.normalize(sql) == shape)
    }

    @Test func internGivesOneNumberPerShape() {
        let a = SQLShape.intern("SELECT * FROM shape_test WHERE a = 1")
        let b = SQLShape.intern("SELECT * FROM shape_test WHERE a = 2")
        let c = SQLShape.intern("SELECT * FROM shape_test WHERE b = 1")
        #expect(a.id == b.id)
        #expect(a.shape == "SELECT * FROM shape_test WHERE a = ?")
        #expect(a.id != c.id)
    }

    /// A statement's text interned at once: the numbers ``SQLShape/intern(_:)``
    /// and ``SQLShape/internText(_:)`` give, again when the text comes
    /// back (a statement prepared on another connection), also after a
    /// text was numbered alone first.
    @Test func aStatementsTextIsInternedOnceWithItsShape() {
        let sql = "SELECT * FROM statement_intern_test WHERE a = 1"
        let first = SQLShape.internStatement(sql)
        let again = SQLShape.internStatement(sql)
        #expect(first.shape == "SELECT * FROM statement_intern_test WHERE a = ?")
        #expect(first.shapeID == SQLShape.intern(sql).id)
        #expect(first.textID == SQLShape.internText(sql))
        #expect(again.shape == first.shape && again.shapeID == first.shapeID && again.textID == first.textID)
        // Another text of the shape: the shape's number, a text number of its own.
        let other = SQLShape.internStatement("SELECT * FROM statement_intern_test WHERE a = 2")
        #expect(other.shapeID == first.shapeID && other.textID != first.textID)
        // A text numbered alone first keeps its number.
        let alone = "SELECT * FROM statement_intern_test WHERE b = ?"
        let textID = SQLShape.internText(alone)
        let statement = SQLShape.internStatement(alone)
        #expect(statement.textID == textID)
        #expect(statement.shape == alone && statement.shapeID == SQLShape.intern(alone).id)
        #expect(SQLShape.internStatement(alone).shapeID == statement.shapeID)
        #expect(SQLShape.text(ofShape: statement.shapeID) == alone)
    }

    @Test func fullScansAreScansWithoutAnIndex() {
        #expect(QueryPlan.isFullScan("SCAN Person"))
        #expect(QueryPlan.isFullScan("  SCAN TABLE ZSELFIE"))
        #expect(!QueryPlan.isFullScan("SCAN Person USING COVERING INDEX Person_name"))
        #expect(!QueryPlan.isFullScan("SEARCH Person USING INTEGER PRIMARY KEY (rowid=?)"))
        #expect(QueryPlan.table(of: "SCAN TABLE ZSELFIE") == "ZSELFIE")
        #expect(QueryPlan.table(of: "SEARCH t0 USING INDEX x (a=?)") == "t0")
    }
}
