import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// Reading and importing a model costs time linear in its size: a flat
/// model of 20,000 entities and a chain of 1,000 parent entities are each
/// read and imported whole, and each costs at most 30 times what a model a
/// tenth its size costs, measured in the same test (linear work gives
/// about 10 times, quadratic about 100 times; the best of three runs of
/// each, so that a busy machine does not decide). Each must also take
/// under a second; the measured times are in the message of any failure.
@Suite(.serialized) struct ModelImportScalingTests {
    /// `count` entities, each with one attribute, no inheritance.
    static func flat(_ count: Int) -> String {
        var xml = "<model>\n"
        for index in 0..<count {
            xml += "<entity name=\"E\(index)\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\" indexed=\"YES\"/></entity>\n"
        }
        return xml + "</model>\n"
    }

    /// `depth` entities, each the parent of the next, each with an
    /// attribute of its own; the deepest is named first in the file.
    static func chain(_ depth: Int) -> String {
        var xml = "<model>\n"
        for index in (0..<depth).reversed() {
            let parent = index == 0 ? "" : " parentEntity=\"E\(index - 1)\""
            xml += "<entity name=\"E\(index)\"\(parent)><attribute name=\"a\(index)\" optional=\"YES\" attributeType=\"String\" indexed=\"YES\"/></entity>\n"
        }
        return xml + "</model>\n"
    }

    /// The best of three reads and imports of the model at `path`, in seconds, and the last import.
    static func time(_ path: String) throws -> (seconds: Double, imported: ImportedModel) {
        var best = Double.infinity
        var last: ImportedModel?
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            last = CoreDataModelImport.importModel(try CoreDataModelXML.read(path))
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return (best, last!)
    }

    @Test func aFlatModelOfTwentyThousandEntitiesImportsInLinearTime() throws {
        let small = try Self.time(try ModelFileReadingTests.write(Self.flat(2_000)))
        let large = try Self.time(try ModelFileReadingTests.write(Self.flat(20_000)))
        let model = try #require(large.imported.model)
        #expect(model.entities.count == 20_000)
        #expect(model.entity(named: "E19999")?.attributes.map(\.isIndexed) == [true])
        #expect(large.imported.skipped.isEmpty)
        #expect(small.imported.model?.entities.count == 2_000)
        let times = "2,000 entities: \(small.seconds) s; 20,000: \(large.seconds) s"
        #expect(large.seconds <= 30 * max(small.seconds, 0.001), "\(times)")
        #expect(large.seconds < 1, "\(times)")
    }

    @Test func aChainOfAThousandParentEntitiesImportsInLinearTime() throws {
        let small = try Self.time(try ModelFileReadingTests.write(Self.chain(100)))
        let large = try Self.time(try ModelFileReadingTests.write(Self.chain(1_000)))
        let model = try #require(large.imported.model)
        #expect(model.entities.count == 1_000)
        let deepest = try #require(model.entity(named: "E999"))
        #expect(deepest.attributes.count == 1_000)
        #expect(deepest.attributes.filter(\.isIndexed).count == 1_000)
        #expect(large.imported.skipped.isEmpty)
        let xml = try CoreDataModelXML.read(try ModelFileReadingTests.write(Self.chain(1_000)))
        let deepestXML = try #require(xml.entity(named: "E999"))
        #expect(xml.ancestors(of: deepestXML).map(\.name) == (0..<999).map { "E\($0)" })
        let times = "100 deep: \(small.seconds) s; 1,000 deep: \(large.seconds) s"
        #expect(large.seconds <= 30 * max(small.seconds, 0.001), "\(times)")
        #expect(large.seconds < 1, "\(times)")
    }

    /// A cycle far down a long chain is still found, and named.
    @Test func aCycleAtTheEndOfALongChainIsFound() throws {
        var xml = Self.chain(1_000)
        xml = xml.replacingOccurrences(of: "<entity name=\"E0\">", with: "<entity name=\"E0\" parentEntity=\"E999\">")
        let path = try ModelFileReadingTests.write(xml)
        do {
            _ = try CoreDataModelXML.read(path)
            Issue.record("read")
        } catch let error as ModelImportError {
            #expect(error.description.hasPrefix("\(path):2:"), "\(error.description.prefix(200))")
            #expect(error.description.contains(": entity E999: parentEntity makes a cycle: E999 → E998 → "))
            #expect(error.description.hasSuffix("E1 → E0 → E999"))
        }
    }
}
