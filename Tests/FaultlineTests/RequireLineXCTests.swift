import Foundation
import ObjectGraph
import XCTest
@testable import Faultline

/// In XCTest a failing check is a failure at the line that called it, and
/// only that: the error it throws to end the test is not a second one.
final class RequireLineXCTests: XCTestCase {
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else { return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected) }
        captured.append((description, filePath, lineNumber))
    }

    func testAFailingCheckNamesTheCallingLine() throws {
        let store = try MeasureTests.store()
        let measurement = try Faultline.measure(store) { _ = try MeasureTests.listScreen(ObjectContext(store: store), prefetching: false) }
        capturing = true
        let line = #line + 2
        do {
            try measurement.requireNoNPlusOne()
        } catch {}
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertEqual(captured.first?.file, #filePath)
        XCTAssertTrue(captured.first?.description.contains("expected no n-plus-one insight, found 1:") == true, "\(captured)")
    }

    /// A helper that wraps a check passes its caller's line on.
    func testAHelperPassesItsCallersLineOn() throws {
        let store = try MeasureTests.store()
        let measurement = try Faultline.measure(store) { _ = try MeasureTests.listScreen(ObjectContext(store: store), prefetching: false) }
        func requireFewStatements(_ measurement: Faultline.Measurement, file: StaticString = #filePath, line: UInt = #line) throws {
            try measurement.requireAtMost(statements: 5, filePath: file, line: line)
        }
        capturing = true
        let line = #line + 1
        try? requireFewStatements(measurement)
        capturing = false
        XCTAssertEqual(captured.map(\.line), [line])
        XCTAssertTrue(captured.first?.description.contains("expected at most 5 sqlStatements, got 82") == true)
    }
}
