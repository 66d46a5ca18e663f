import Foundation
import Testing
import XCTest

/// Where a failing check of a ``Measurement`` is reported: at the line
/// that called it, as the test framework running it reports a failed
/// expectation.
///
/// - In Swift Testing (a test is running: `Test.current`), as an issue at
///   that line; the check then throws the error `#require` throws, which
///   ends the test without a second issue.
/// - In XCTest (a `.xctest` bundle without a Swift Testing test), as a
///   failure at that line (through `XCTUnwrap`, whose error ends the test
///   without a second failure).
/// - Anywhere else, the check throws its ``MeasurementFailure``.
///
/// Each check takes the caller's location as `#fileID`, `#filePath`,
/// `#line` and `#column` (what Swift Testing's `SourceLocation` and
/// XCTest's `file:line:` are made of), so a helper that wraps a check
/// passes its own caller's on.
enum MeasurementCheck {
    /// A check that passed, for the text of the expectation that failed.
    struct MeasurementCheckPassed {}

    static func fail(_ failure: MeasurementFailure, fileID: String, filePath: StaticString, line: UInt, column: UInt) throws -> Never {
        if Test.current != nil {
            let measurementCheckPassed = false
            let location = SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
            try #require(measurementCheckPassed, Comment(rawValue: failure.description), sourceLocation: location)
        }
        if CommandLine.arguments.first?.hasSuffix(".xctest") == true {
            _ = try XCTUnwrap(nil as MeasurementCheckPassed?, failure.description, file: filePath, line: line)
        }
        throw failure
    }
}
