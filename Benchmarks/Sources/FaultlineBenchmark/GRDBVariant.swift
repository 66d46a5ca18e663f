import Foundation
import GRDB
import ObjectGraph
import BuiltInScenarios
import Scenarios

/// A pattern written as a GRDB user would write it: Codable records,
/// associations, `including(all:)` for prefetching, one query per selfie
/// and relationship for the N+1 loop. The connection has Faultline's
/// settings (WAL, synchronous=NORMAL), so only the code differs.
struct GRDBVariant {
    typealias R = GRDBRecords
    let pattern: Pattern
    let scale: Double
    let seed: UInt64

    private static func open(_ file: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return try DatabaseQueue(path: file, configuration: configuration)
    }

    /// Opens what the pattern needs (not measured) and returns its measured
    /// work, which returns a count to check against the other variants.
    func prepare(file: String) throws -> () throws -> Int {
        let (scale, seed) = (scale, seed)
        if pattern.createsTheStore {
            return {
                let queue = try Self.open(file)
                return try queue.write { db in try Self.build(db, scale: scale, seed: seed) }
            }
        }
        let queue = try Self.open(file)
        switch pattern {
        case .createDataSet: fatalError("handled above")
        case .fetchAll:
            return {
                try queue.read { db in
                    try R.Person.fetchAll(db).count + R.Selfie.fetchAll(db).count + R.SocialNetwork.fetchAll(db).count
                }
            }
        case .singleFault, .batchFault:
            // GRDB has no faults: the N+1 loop is a query per selfie and relationship.
            return {
                try queue.read { db in
                    var names = 0
                    for selfie in try R.Selfie.fetchAll(db) {
                        names += Self.readNames(
                            selfie, try selfie.request(for: R.Selfie.socialNetworks).fetchAll(db),
                            try selfie.request(for: R.Selfie.people).fetchAll(db))
                    }
                    return names
                }
            }
        case .prefetch:
            return {
                try queue.read { db in
                    let request = R.Selfie.including(all: R.Selfie.socialNetworks).including(all: R.Selfie.people)
                    var names = 0
                    for row in try request.asRequest(of: R.SelfieWithRelations.self).fetchAll(db) {
                        names += Self.readNames(row.selfie, row.socialNetworks, row.people)
                    }
                    return names
                }
            }
        case .rowCacheFault, .attributeRead:
            // GRDB has no faults: its records hold their values, so both
            // micro patterns are a fetch and reads of a record's field.
            return {
                let people = try queue.read { db in try R.Person.fetchAll(db) }
                var names = 0
                for _ in 0..<Pattern.microPasses {
                    for person in people { names += person.name.isEmpty ? 0 : 1 }
                }
                return names
            }
        case .subqueryByHand:
            return {
                try queue.read { db in
                    let selfies = try R.Selfie.filter(Column("rating") < 5 || Column("name").like("%e%ie%")).fetchAll(db)
                    var seen = Set<Int64>()
                    for selfie in selfies {
                        for person in try selfie.request(for: R.Selfie.people).fetchAll(db) { seen.insert(person.pk) }
                    }
                    return seen.count
                }
            }
        case .subquery:
            return {
                try queue.read { db in
                    let matching = R.Person.selfies.filter(Column("rating") < 5 || Column("name").like("%e%ie%"))
                    return try R.Person.having(matching.isEmpty == false).fetchAll(db).count
                }
            }
        case .batchUpdateOneAtATime:
            return {
                try queue.write { db in
                    var selfies = try R.Selfie.fetchAll(db)
                    for index in selfies.indices {
                        selfies[index].rating = 5
                        try selfies[index].update(db)
                    }
                    return selfies.count
                }
            }
        case .batchUpdate:
            return { try queue.write { db in try R.Selfie.updateAll(db, Column("rating").set(to: 7)) } }
        case .batchInsertOneAtATime, .batchInsert:
            let count = DataSetKind.count(1_000, scale: scale)
            let (oneAtATime, batch) = BatchInsertExperiment.values(count: count, seed: seed)
            if pattern == .batchInsert {
                let records = batch.map(Self.fireball)
                return { try queue.write { db in for record in records { try record.insert(db) }; return records.count } }
            }
            let records = oneAtATime.map(Self.fireball)
            return {
                for record in records { try queue.write { db in try record.insert(db) } }
                return records.count
            }
        }
    }

    /// The fault loops' reads: the selfie's name, then each network's and
    /// each person's; the names read.
    private static func readNames(_ selfie: R.Selfie, _ networks: [R.SocialNetwork], _ people: [R.Person]) -> Int {
        _ = selfie.name
        for network in networks { _ = network.name }
        for person in people { _ = person.name }
        return networks.count + people.count
    }

    /// The Selfies data set, the same rows as Faultline's generator.
    private static func build(_ db: Database, scale: Double, seed: UInt64) throws -> Int {
        try R.createSelfiesSchema(db)
        let n = Int64(DataSetKind.count(500, scale: scale))
        var rng = SeededGenerator(seed: seed)
        for i in 1...n { try R.Person(pk: i, name: "Person \(i)").insert(db) }
        for i in 1...n { try R.Selfie(pk: i, name: "Selfie \(i)", rating: Int64.random(in: 1...10, using: &rng)).insert(db) }
        for i in 1...n { try R.SocialNetwork(pk: i, name: "Network \(i)").insert(db) }
        for selfie in 1...n {
            for person in 1...n { try R.PersonSelfie(source: person, destination: selfie).insert(db) }
        }
        for selfie in 1...n {
            for network in 1...n { try R.SelfieNetwork(source: selfie, destination: network).insert(db) }
        }
        return Int(3 * n + 2 * n * n)
    }

    private static func fireball(_ values: [String: Value]) -> R.Fireball {
        func double(_ key: String) -> Double {
            switch values[key] {
            case .double(let value): value
            case .date(let date): date.timeIntervalSince1970
            default: 0
            }
        }
        return R.Fireball(
            pk: nil, timestamp: double("timestamp"), radiatedEnergy: double("radiatedEnergy"), impactEnergy: double("impactEnergy"),
            latitude: double("latitude"), longitude: double("longitude"), altitude: double("altitude"), velocity: double("velocity"))
    }
}
