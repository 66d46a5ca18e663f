import Foundation
import Reporting
import Testing

/// What `--history` accepts, how stores are named in messages (never with
/// a password), the identity of a report, and the history's time text.
@Suite struct HistoryLocationTests {
    @Test(arguments: [
        ("Reports/history.sqlite", HistoryLocation.Kind.sqlite(path: "Reports/history.sqlite")),
        ("/var/lib/perf/history.db", .sqlite(path: "/var/lib/perf/history.db")),
        ("sqlite:history.sqlite", .sqlite(path: "history.sqlite")),
        ("SQLite:/tmp/h.sqlite", .sqlite(path: "/tmp/h.sqlite")),
        ("file:relative/h.sqlite", .sqlite(path: "relative/h.sqlite")),
        ("file:///tmp/with%20space.sqlite", .sqlite(path: "/tmp/with space.sqlite")),
        ("sqlite:///tmp/h.sqlite", .sqlite(path: "/tmp/h.sqlite")),
        ("postgresql://ci@db.internal:5433/perf", .postgreSQL(PostgreSQLAddress(url: "postgresql://ci@db.internal:5433/perf"))),
        ("postgres://ci@db/perf?sslmode=require", .postgreSQL(PostgreSQLAddress(url: "postgres://ci@db/perf?sslmode=require"))),
        ("PostgreSQL://h/db", .postgreSQL(PostgreSQLAddress(url: "postgresql://h/db"))),
    ])
    func locationsAreRead(argument: String, kind: HistoryLocation.Kind) throws {
        #expect(try HistoryLocation(argument).kind == kind)
    }

    @Test(arguments: [
        ("", "--history: an empty location: give a SQLite file path or a postgresql:// URL"),
        ("mysql://root:pw@h/db", "--history mysql://…: not a kind of history store (a SQLite file path, sqlite:PATH, or postgresql://…)"),
        ("sqlite:", "--history sqlite:: no file path after the colon"),
        ("file://otherhost/h.sqlite", "--history file://otherhost/h.sqlite: not a local file URL (sqlite:///absolute/path or sqlite:relative/path)"),
        ("postgresql://u:pw%zz@h/db", "--history postgresql://u:***@h/db: not a PostgreSQL URL: invalid percent-encoded token: \"***\""),
        ("postgresql://h/db?password=topsecret&nope=1", "--history postgresql://h/db?password=***&nope=1: not a PostgreSQL URL: invalid URI query parameter: \"nope\""),
    ])
    func badLocationsAreOneLineNamingTheOption(argument: String, message: String) {
        #expect(throws: HistoryError(message)) { try HistoryLocation(argument) }
    }

    @Test func aPasswordNeverShows() throws {
        let location = try HistoryLocation("postgresql://ci:hunter2@db:5432/perf?sslmode=disable&password=other")
        #expect(location.description == "postgresql://ci:***@db:5432/perf?sslmode=disable&password=***")
        #expect("\(location)" == location.description)
        #expect(String(reflecting: location) == location.description)
        // Without a password, the URL shows as given.
        #expect(try HistoryLocation("postgresql://ci@db/perf").description == "postgresql://ci@db/perf")
        #expect(try HistoryLocation("postgresql://ci:@db/perf").description == "postgresql://ci:***@db/perf")
    }

    @Test func anUnstampedReportIsKnownByTheSHA256OfItsBytes() {
        let report = HistoryStoreTests.report(commit: "abc")
        // FIPS 180-4's examples.
        #expect(RunIdentity.of(report, bytes: Data()).rawValue == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(RunIdentity.of(report, bytes: Data("abc".utf8)).rawValue == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            RunIdentity.of(report, bytes: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).rawValue
                == "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            RunIdentity.of(report, bytes: Data(repeating: UInt8(ascii: "a"), count: 1_000_000)).rawValue
                == "sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Without bytes: the digest of its JSON as perf-run writes it; two reports that differ, two identities.
        let other = HistoryStoreTests.report(commit: "abd")
        #expect(RunIdentity.of(report) == RunIdentity.of(report))
        #expect(RunIdentity.of(report) != RunIdentity.of(other))
        // A stamped report is known by its stamp, whatever its bytes.
        var stamped = report
        stamped.run = Report.RunStamp(identifier: "0b5c8f1e-run", time: Date(timeIntervalSince1970: 0))
        #expect(RunIdentity.of(stamped, bytes: Data("abc".utf8)).rawValue == "0b5c8f1e-run")
    }

    @Test func aRunStampIsISO8601ToTheMicrosecondAndReadBack() throws {
        let stamp = Report.RunStamp(identifier: "id-1", time: Date(timeIntervalSince1970: 1_780_000_000.123456))
        let json = String(decoding: try ReportFile.json(stamp, pretty: false), as: UTF8.self)
        #expect(json == #"{"identifier":"id-1","time":"2026-05-28T20:26:40.123456Z"}"#)
        #expect(try JSONDecoder().decode(Report.RunStamp.self, from: Data(json.utf8)) == stamp)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Report.RunStamp.self, from: Data(#"{"identifier":"x","time":"yesterday"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Report.RunStamp.self, from: Data(#"{"identifier":"","time":"2026-05-28T20:26:40Z"}"#.utf8))
        }
    }

    @Test(arguments: [
        ("2026-05-28T20:26:40Z", 1_780_000_000.0),
        ("2026-05-28T20:26:40.5Z", 1_780_000_000.5),
        ("2026-05-28T20:26:40.123456789Z", 1_780_000_000.123456),
        ("1970-01-01T00:00:00.000001Z", 0.000001),
    ])
    func historyTimesAreRead(text: String, seconds: Double) throws {
        let date = try #require(HistoryTime.date(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0000005)
    }

    @Test(arguments: ["2026-02-30T00:00:00Z", "2026-05-28 20:26:40Z", "2026-05-28T20:26:40", "2026-05-28T20:26:40.Z", "2026-13-01T00:00:00Z", "x"])
    func notHistoryTimes(text: String) {
        #expect(HistoryTime.date(text) == nil)
    }
}

extension HistoryLocationTests {
    @Test(arguments: [
        ("postgresql://ci:hunter2@db/perf", "postgresql://ci:***@db/perf"),
        ("--history=postgres://ci:hunter2@db/perf?password=x", "--history=postgres://ci:***@db/perf?password=***"),
        ("postgresql://h1:5432,h2:5433/perf?password=hunter2", "postgresql://h1:5432,h2:5433/perf?password=***"),
        ("Reports/history.sqlite", "Reports/history.sqlite"),
        ("--scale=0.1", "--scale=0.1"),
        // URLs libpq cannot read keep their passwords too.
        ("postgresql://ci:hun/ter2@db/perf", "postgresql://ci:***@db/perf"),
        ("postgresql://ci:hunter2@[::1/perf", "postgresql://ci:***@[::1/perf"),
    ])
    func aCommandLineArgumentLosesItsPassword(argument: String, recorded: String) {
        #expect(HistoryLocation.redactingPassword(argument) == recorded)
    }
}
