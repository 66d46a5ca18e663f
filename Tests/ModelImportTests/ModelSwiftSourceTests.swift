import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// `perf-run model import --swift`: every value kind as Swift source that
/// compiles (CorpusSwiftTypeCheckTests compiles it) and reads back as the
/// same value.
@Suite struct ModelSwiftSourceTests {
    @Test(arguments: [
        (Double.infinity, ".infinity"), (-Double.infinity, "-.infinity"), (Double.nan, ".nan"), (0.1, "0.1"), (-0.0, "-0.0"),
        (1e-05, "1e-05"), (1e300, "1e+300"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"), (3, "3.0"),
        (Double.leastNonzeroMagnitude, "0x1p-1074"), (-Double.leastNormalMagnitude / 2, "-0x8000000000000p-1074"),
    ])
    func doublesAreSwiftExpressions(value: Double, swift: String) {
        #expect(ModelSwiftSource.literal(value) == swift)
        #expect(ModelSwiftSource.literal(Value.double(value)) == ".double(\(swift))")
    }

    @Test func everyValueKindIsASwiftExpression() {
        #expect(ModelSwiftSource.literal(Value.null) == ".null")
        #expect(ModelSwiftSource.literal(Value.integer(.min)) == ".integer(-9223372036854775808)")
        #expect(ModelSwiftSource.literal(Value.bool(false)) == ".bool(false)")
        #expect(ModelSwiftSource.literal(Value.date(Date(timeIntervalSinceReferenceDate: 631123200))) ==
            ".date(Date(timeIntervalSinceReferenceDate: 631123200.0))")
        #expect(ModelSwiftSource.literal(Value.date(Date(timeIntervalSinceReferenceDate: -0.5))) ==
            ".date(Date(timeIntervalSinceReferenceDate: -0.5))")
        #expect(ModelSwiftSource.literal(Value.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)) ==
            ".uuid(UUID(uuidString: \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\")!)")
        #expect(ModelSwiftSource.literal(Value.data(Data([0, 255]))) == ".data(Data(base64Encoded: \"AP8=\")!)")
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\path"#, #""C:\\path""#),
        ("two\nlines\r\tend", #""two\nlines\r\tend""#),
        ("nul\u{0}del\u{7F}", #""nul\u{0}del\u{7F}""#),
        ("\u{202E}evil", #""\u{202E}evil""#),
        ("line\u{2028}sep", #""line\u{2028}sep""#),
        ("\\(interpolation)", #""\\(interpolation)""#),
        ("#\"raw\"#", ##""#\"raw\"#""##),
        ("café ☕️ 日本", "\"café ☕\u{FE0F} 日本\""),
    ])
    func stringsAreEscapedAsSwiftLiterals(text: String, swift: String) {
        #expect(ModelSwiftSource.quoted(text) == swift)
    }

    /// Foundation is imported when a value needs it, and only then.
    @Test func foundationIsImportedForDatesUUIDsAndData() {
        let plain = ModelSwiftSource.render([Entity("Tag", properties: [.attribute("name", .string, default: "x")])])
        #expect(plain.hasPrefix("import ObjectGraph\n\nlet model = try! Model([\n"))
        let dated = ModelSwiftSource.render([Entity("Tag", properties: [.attribute("at", .date, default: .date(Date(timeIntervalSinceReferenceDate: 0)))])])
        #expect(dated.hasPrefix("import Foundation\nimport ObjectGraph\n\nlet model = try! Model([\n"))
    }
}
