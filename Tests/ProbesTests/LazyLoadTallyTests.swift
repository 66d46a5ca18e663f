@testable import Probes
import Scenarios
import Testing

/// A lazy-load path's tally keeps its open executions in the order they
/// came and settles the oldest without sorting when they came in
/// increasing order: on seeded random runs it settles what sorting the
/// open executions' numbers settled.
@Suite struct LazyLoadTallyTests {

    /// The tally as it was: open executions in dictionaries, the numbers
    /// sorted at each settling.
    struct Reference {
        var objects: [UInt64: Int] = [:]
        var relationships: [UInt64: Int] = [:]
        var objectHistogram: [Int: Int] = [:]
        var relationshipHistogram: [Int: Int] = [:]

        mutating func count(execution: UInt64, relationship: Bool) {
            if relationship {
                relationships[execution, default: 0] += 1
                if relationships.count > LazyLoadTally.openLimit { Self.settle(&relationships, into: &relationshipHistogram) }
            } else {
                objects[execution, default: 0] += 1
                if objects.count > LazyLoadTally.openLimit { Self.settle(&objects, into: &objectHistogram) }
            }
        }

        static func settle(_ open: inout [UInt64: Int], into histogram: inout [Int: Int]) {
            for execution in open.keys.sorted().dropLast(LazyLoadTally.openLimit / 2) {
                histogram[open.removeValue(forKey: execution)!, default: 0] += 1
            }
        }

        var settled: (objects: [Int: Int], relationships: [Int: Int]) {
            var result = (objectHistogram, relationshipHistogram)
            for count in objects.values { result.0[count, default: 0] += 1 }
            for count in relationships.values { result.1[count, default: 0] += 1 }
            return result
        }
    }

    /// Executions mostly in increasing order, a few loads each, now and
    /// then one from further back (`disorder` in 1000), over enough
    /// executions to settle several times.
    @Test(arguments: [(1, 0), (2, 5), (3, 200), (4, 1000)] as [(UInt64, Int)])
    func settlesWhatSortingSettled(seed: UInt64, disorder: Int) {
        var generator = SeededGenerator(seed: seed)
        var tally = LazyLoadTally(destinationEntity: "Post", firstRead: CallSite(file: "App/List.swift", line: 3))
        var reference = Reference()
        var execution: UInt64 = 0
        for _ in 0..<30_000 {
            if Int.random(in: 0..<1000, using: &generator) < disorder {
                let back = UInt64.random(in: 0...min(execution, 9_000), using: &generator)
                let relationship = Bool.random(using: &generator)
                tally.count(execution: execution - back, relationship: relationship)
                reference.count(execution: execution - back, relationship: relationship)
                continue
            }
            if Int.random(in: 0..<3, using: &generator) == 0 { execution += UInt64.random(in: 1...3, using: &generator) }
            let relationship = Int.random(in: 0..<4, using: &generator) == 0
            tally.count(execution: execution, relationship: relationship)
            reference.count(execution: execution, relationship: relationship)
        }
        let settled = tally.settled
        #expect(settled.objectFaultsPerExecution == reference.settled.objects)
        #expect(settled.relationshipFaultsPerExecution == reference.settled.relationships)
    }
}
