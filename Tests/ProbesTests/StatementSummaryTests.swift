import Probes
import Testing

/// What the server bridges read from a statement once per shape.
@Suite struct StatementSummaryTests {
    @Test func operationAndTable() {
        let cases: [(String, String, String?)] = [
            (#"SELECT t0.pk, t0."name" FROM "Person" t0 WHERE t0.pk = ?"#, "SELECT", "Person"),
            (#"SELECT (SELECT count(*) FROM "J" j WHERE j.source = t0.pk) FROM "Selfie" t0"#, "SELECT", "Selfie"),
            (#"INSERT INTO "Selfie" (pk, "name") VALUES (?, ?)"#, "INSERT", "Selfie"),
            (#"UPDATE "Selfie" SET "rating" = ? WHERE pk = ?"#, "UPDATE", "Selfie"),
            (#"UPDATE OR ROLLBACK "Selfie" SET "rating" = ?"#, "UPDATE", "Selfie"),
            (#"DELETE FROM "Person_selfies" WHERE source = ?"#, "DELETE", "Person_selfies"),
            ("delete from faultline_history_change where transaction_number <= ?", "DELETE", "faultline_history_change"),
            ("BEGIN IMMEDIATE", "BEGIN", nil),
            ("COMMIT", "COMMIT", nil),
            ("", "", nil),
        ]
        for (sql, operation, table) in cases {
            let summary = StatementSummary(sql)
            #expect(summary.operation == operation, "\(sql)")
            #expect(summary.table == table, "\(sql)")
        }
        #expect(StatementSummary("SELECT t0.pk FROM \"Item\" t0").summary == "SELECT Item")
        #expect(StatementSummary("BEGIN DEFERRED").summary == "BEGIN")
        #expect(StatementSummary("BEGIN DEFERRED").kind == "begin")
    }
}
