import Foundation
import Insights
import Reporting
import Testing
import ToolSupport

/// A thresholds, noise floor or insights file with a key given twice is
/// refused with the key path, as a report is: JSON readers differ on which one counts.
@Suite struct SettingsFileKeyTests {
    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "settings-\(UUID()).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aThresholdsFileWithAKeyGivenTwiceIsRefused() throws {
        let path = try Self.file(#"{"counters": {"sqlStatements": {"absolute": 1, "absolute": 100}}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ReportError("\(path): counters.sqlStatements.absolute: the key is given twice (JSON readers differ on which one counts)")) {
            try Thresholds.read(path)
        }
        let once = try Self.file(#"{"counters": {"sqlStatements": {"absolute": 1}}, "scenarios": {"A": {"sqlStatements": {"absolute": 1}}}}"#)
        defer { try? FileManager.default.removeItem(atPath: once) }
        #expect(try Thresholds.read(once).counters["sqlStatements"]?.absolute == 1)
    }

    @Test func aNoiseFloorFileWithAKeyGivenTwiceIsRefused() throws {
        let path = try Self.file(#"{"relative": 0.1, "absolute": 0.001, "relative": 0.5}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ReportError("\(path): relative: the key is given twice (JSON readers differ on which one counts)")) {
            try NoiseFloor.read(path)
        }
    }

    @Test func anInsightsFileWithAKeyGivenTwiceIsRefused() throws {
        let path = try Self.file(#"{"thresholds": {"n-plus-one": 5, "n-plus-one": 50}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ReportError("\(path): thresholds.n-plus-one: the key is given twice (JSON readers differ on which one counts)")) {
            try InsightSettings(contentsOf: path)
        }
        let large = try Self.file(#"{"smallTableRows": 1e400}"#)
        defer { try? FileManager.default.removeItem(atPath: large) }
        #expect(throws: ReportError("\(large): smallTableRows: the number 1e400 is out of range (beyond a 64-bit floating-point number)")) {
            try InsightSettings(contentsOf: large)
        }
        let once = try Self.file(#"{"thresholds": {"n-plus-one": 5}, "intended": {"n-plus-one": "a reason"}}"#)
        defer { try? FileManager.default.removeItem(atPath: once) }
        #expect(try InsightSettings(contentsOf: once).thresholds[InsightRuleID("n-plus-one")] == 5)
    }
}
