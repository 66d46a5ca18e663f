import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// Reading and importing a model costs time linear in its size, measured
/// against a smaller case in the same test (the best of three runs of
/// each, so that a busy machine does not decide; no absolute wall-clock
/// bound, which a loaded machine and a debug build would make flaky):
/// - a flat model of 20,000 entities costs at most 30 times one of 2,000
///   (linear work gives about 10 times, quadratic about 100 times; it took
///   107 s before, against about a second now in a debug build);
/// - a chain of 1,000 parent entities costs at most 30 times a flat model
///   of 1,000 entities (the same entities without depth: before, each
///   entity walked its chain, and 400 deep took 73 s).
@Suite(.serialized) struct ModelImportScalingTests {
    /// `count` entities, each with one attribute, no inheritance.
    static func flat(_ count: Int) -> String {
        var xml = "<model>\n"
        for index in 0..<count {
            xml += "<entity name=\"E\(index)\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\" indexed=\"YES\"/></entity>\n"
        }
        return xml + "</model>\n"
    }

    /// `depth` entities, each the parent of the next, the root with an
    /// indexed attribute the others inherit (each entity's own attributes
    /// hold its ancestors' too, so an attribute per level would make the
    /// model itself quadratic); the deepest entity is named first in the
    /// file, so that each is read before its parent.
    static func chain(_ depth: Int) -> String {
        var xml = "<model>\n"
        for index in (0..<depth).reversed() {
            let parent = index == 0 ? "" : " parentEntity=\"E\(index - 1)\""
            let attribute = index == 0 ? "<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>" : ""
            xml += "<entity name=\"E\(index)\"\(parent)>\(attribute)<fetchIndex name=\"byA\(index)\"><fetchIndexElement property=\"a\" type=\"Binary\" order=\"ascending\"/></fetchIndex></entity>\n"
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
    }

    @Test func aChainOfAThousandParentEntitiesImportsInLinearTime() throws {
        let small = try Self.time(try ModelFileReadingTests.write(Self.flat(1_000)))
        let large = try Self.time(try ModelFileReadingTests.write(Self.chain(1_000)))
        let model = try #require(large.imported.model)
        #expect(model.entities.count == 1_000)
        let deepest = try #require(model.entity(named: "E999"))
        #expect(deepest.attributes.map(\.name) == ["a"])
        #expect(deepest.attributes.map(\.isIndexed) == [true])
        #expect(deepest.parentName == "E998")
        #expect(model.entity(named: "E998")?.subentityNames == ["E999"])
        #expect(large.imported.skipped.isEmpty)
        let xml = try CoreDataModelXML.read(try ModelFileReadingTests.write(Self.chain(1_000)))
        let deepestXML = try #require(xml.entity(named: "E999"))
        #expect(xml.ancestors(of: deepestXML).map(\.name) == (0..<999).map { "E\($0)" })
        let times = "1,000 flat: \(small.seconds) s; 1,000 deep: \(large.seconds) s"
        #expect(large.seconds <= 30 * max(small.seconds, 0.001), "\(times)")
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
