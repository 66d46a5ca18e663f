import Dispatch
import Foundation
import Synchronization
import Testing
@testable import ObjectGraph

/// Two writer contexts save 5,000 objects each, one save per object, while
/// two reader contexts fetch and count continuously: no error, exactly
/// 10,000 rows, every object readable, and counts never going down.
@Suite struct ConcurrentContextStressTests {
    @Test func writersAndReadersTogether() throws {
        let store = try Fixtures.store()
        let perWriter = 5_000
        let writersDone = Atomic<Int>(0)
        let errors = Mutex<[String]>([])
        let observations = Mutex<[[Int]]>([[], []])
        let group = DispatchGroup()

        for writer in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer {
                    writersDone.add(1, ordering: .releasing)
                    group.leave()
                }
                let context = ObjectContext(store: store, name: "writer \(writer)")
                context.perform {
                    for number in 0..<perWriter {
                        do {
                            let network = try context.insert(SocialNetwork.self)
                            network.name = "w\(writer)-\(number)"
                            try context.save()
                        } catch {
                            errors.withLock { $0.append("writer \(writer): \(error)") }
                            return
                        }
                    }
                }
            }
        }
        for reader in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let context = ObjectContext(store: store, name: "reader \(reader)")
                context.perform {
                    repeat {
                        do {
                            let count = try context.count(for: FetchRequest<SocialNetwork>())
                            observations.withLock { $0[reader].append(count) }
                            if reader == 1 { _ = try context.fetchObjectIDs(FetchRequest<SocialNetwork>(predicate: Key("name").beginsWith("w1-"))) }
                        } catch {
                            errors.withLock { $0.append("reader \(reader): \(error)") }
                            return
                        }
                    } while writersDone.load(ordering: .acquiring) < 2
                }
            }
        }
        group.wait()
        #expect(errors.withLock { $0 } == [])
        let seen = observations.withLock { $0 }
        for counts in seen {
            #expect(!counts.isEmpty)
            #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "a reader's count went down")
        }
        let check = ObjectContext(store: store, name: "check")
        try check.perform {
            let all = Array(try check.fetch(FetchRequest<SocialNetwork>()))
            #expect(all.count == 2 * perWriter)
            #expect(Set(all.map(\.name)).count == 2 * perWriter)
        }
    }
}
