import Foundation
import ObjectGraph

/// A data set described rather than coded: how many objects of each entity
/// (a function of the scale), how each attribute's values are made, and how
/// many destinations each to-many relationship gets. ``DataSetKind/init(name:model:generatorVersion:spec:)``
/// turns it into a data set the runner builds, caches and verifies.
///
/// Values come from the object's number (from 1) and from one seeded
/// generator, drawn in a fixed order: entities in the order given, each
/// object's attributes in the order given, then the relationships in the
/// order given. The same spec, scale and seed build the same rows.
///
/// ```swift
/// DataSetSpec(entities: [
///     .init("Author", base: 200, attributes: [.init("name", .text("Author {n}"))]),
///     .init("Post", base: 1_000, attributes: [
///         .init("title", .text("Post {n}")),
///         .init("likes", .zipfInt(max: 1_000, exponent: 1.1)),
///     ]),
/// ], relationships: [
///     .init("Author", "posts", .roundRobin),
/// ])
/// ```
public struct DataSetSpec: Sendable {
    public var entities: [EntitySpec]
    public var relationships: [RelationshipSpec]

    public init(entities: [EntitySpec], relationships: [RelationshipSpec] = []) {
        self.entities = entities
        self.relationships = relationships
    }

    /// One entity: `max(1, round(base × scale))` objects.
    public struct EntitySpec: Sendable {
        public var name: String
        public var base: Int
        public var attributes: [AttributeSpec]

        public init(_ name: String, base: Int, attributes: [AttributeSpec] = []) {
            self.name = name
            self.base = base
            self.attributes = attributes
        }

        /// The attribute values of object `number` (from 1), drawing from
        /// `rng` in the attributes' order.
        public func values(number: Int, rng: inout SeededGenerator) -> [String: Value] {
            var values: [String: Value] = [:]
            for attribute in attributes { values[attribute.name] = DataSetSpec.value(attribute.values, number: number, rng: &rng) }
            return values
        }
    }

    public struct AttributeSpec: Sendable {
        public var name: String
        public var values: ValueGenerator

        public init(_ name: String, _ values: ValueGenerator) {
            self.name = name
            self.values = values
        }
    }

    /// How an attribute's values are made, for object number n (from 1).
    public enum ValueGenerator: Sendable {
        /// `start + (n − 1) × step`.
        case sequence(start: Int64 = 1, step: Int64 = 1)
        /// The pattern with `{n}` replaced by the number.
        case text(String)
        /// One of the values, uniformly.
        case choice([Value])
        /// A whole number drawn uniformly from the range, divided by
        /// `divisor` (a double when it is not 1).
        case uniformInt(ClosedRange<Int>, divisor: Int = 1)
        /// A double from a normal distribution.
        case normal(mean: Double, deviation: Double)
        /// A whole number from 1 to `max`, 1 the most frequent: Zipf's law
        /// with the exponent (a few values common, most rare).
        case zipfInt(max: Int, exponent: Double)
        /// `start + (n − 1) × step` seconds.
        case dates(start: Date, step: TimeInterval)
        case constant(Value)
    }

    /// How many destinations each object of `entity` gets through its
    /// `relationship`: any number through a to-many one; one at most
    /// through a to-one (`.fixed(1)`), and a one-to-one's destination one
    /// source at most (a fan-out that gives more is refused, naming it).
    public struct RelationshipSpec: Sendable {
        public var entity: String
        public var relationship: String
        public var fanOut: FanOut

        public init(_ entity: String, _ relationship: String, _ fanOut: FanOut) {
            self.entity = entity
            self.relationship = relationship
            self.fanOut = fanOut
        }
    }

    public enum FanOut: Sendable {
        /// Every destination.
        case all
        /// `k` destinations, from the object's number on (wrapping).
        case fixed(Int)
        /// A number drawn uniformly from the range, of distinct destinations drawn at random.
        case uniform(ClosedRange<Int>)
        /// A number from 1 to `max` drawn by Zipf's law, of distinct destinations drawn at random.
        case zipf(max: Int, exponent: Double)
        /// Each destination goes to one object in turn (destination i to
        /// object i mod count): the to-many side of a one-to-many.
        case roundRobin
    }

    /// Objects of an entity at a scale.
    public func count(_ entity: EntitySpec, scale: Double) -> Int { DataSetKind.count(entity.base, scale: scale) }

    /// Rows each table must have at a scale: every entity, and the join
    /// table of each many-to-many whose fan-out is not drawn at random.
    public func expectedRows(model: Model, scale: Double) -> [String: Int] {
        var rows: [String: Int] = [:]
        for entity in entities { rows[entity.name] = count(entity, scale: scale) }
        for spec in relationships {
            guard let relationship = model.entity(named: spec.entity)?.relationship(named: spec.relationship),
                  let table = relationship.joinTable,
                  let sources = entities.first(where: { $0.name == spec.entity }),
                  let destinations = entities.first(where: { $0.name == relationship.destinationName })
            else { continue }
            let (s, d) = (count(sources, scale: scale), count(destinations, scale: scale))
            switch spec.fanOut {
            case .all: rows[table, default: 0] += s * d
            case .fixed(let k): rows[table, default: 0] += s * max(0, min(k, d))
            case .roundRobin: rows[table, default: 0] += d
            case .uniform, .zipf: break
            }
        }
        return rows
    }

    /// Builds the rows into an empty store, in one transaction: batch
    /// inserts of each entity, then the relationships in chunks.
    ///
    /// Every value and pair is drawn first (in the order the rows are
    /// written, so a seed gives the rows it always gave), so that the
    /// steps' total is known before the first: one per entity and one per
    /// chunk of ``DataSetKind/rowsPerStep`` pairs (a stop is seen within
    /// that many rows), the same from the first step to the last.
    public func build(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void) throws {
        var rng = SeededGenerator(seed: seed)
        let objects = entities.map { entity in (1...count(entity, scale: scale)).map { entity.values(number: $0, rng: &rng) } }
        let counts = Dictionary(entities.map { ($0.name, count($0, scale: scale)) }, uniquingKeysWith: { a, _ in a })
        var relationPairs: [(spec: RelationshipSpec, pairs: [(Int, Int)])] = []
        for spec in relationships {
            guard let relationship = store.model.entity(named: spec.entity)?.relationship(named: spec.relationship) else {
                throw ScenarioFailure("data set: \(spec.entity).\(spec.relationship) is not a relationship of the model")
            }
            let sources = Array(0..<(counts[spec.entity] ?? 0))
            let destinations = Array(0..<(counts[relationship.destinationName] ?? 0))
            let pairs = Self.pairs(sources, destinations, spec.fanOut, rng: &rng)
            if !relationship.isToMany {
                // A to-one holds one destination per source, and a
                // one-to-one one source per destination too.
                let oneToOne = store.model.inverse(of: relationship).map { !$0.isToMany } ?? false
                if Set(pairs.map(\.0)).count < pairs.count || (oneToOne && Set(pairs.map(\.1)).count < pairs.count) {
                    throw ScenarioFailure(
                        "data set: \(spec.entity).\(spec.relationship) is a \(oneToOne ? "one-to-one" : "to-one") relationship: "
                            + "its fan-out must give each \(oneToOne ? "source and each destination" : "source") at most one partner "
                            + "(.fixed(1), or .roundRobin with as many sources as destinations)")
                }
            }
            relationPairs.append((spec, pairs))
        }
        let chunk = DataSetKind.rowsPerStep
        let total = entities.count + relationPairs.reduce(0) { $0 + max(1, ($1.pairs.count + chunk - 1) / chunk) }
        try store.performBatchTransaction {
            var done = 0
            try step(done, total)
            var ids: [String: [ObjectID]] = [:]
            for (entity, values) in zip(entities, objects) {
                ids[entity.name] = try store.execute(BatchInsertRequest(entityName: entity.name, objects: values, resultType: .objectIDs)).objectIDs ?? []
                done += 1
                try step(done, total)
            }
            for (spec, pairs) in relationPairs {
                let relationship = store.model.entity(named: spec.entity)?.relationship(named: spec.relationship)
                let sources = ids[spec.entity] ?? []
                let destinations = relationship.flatMap { ids[$0.destinationName] } ?? []
                for start in stride(from: 0, to: pairs.count, by: chunk) {
                    let slice = pairs[start..<min(start + chunk, pairs.count)].map { (sources[$0.0], destinations[$0.1]) }
                    try store.relate(slice, through: spec.relationship, of: spec.entity)
                    done += 1
                    try step(done, total)
                }
                if pairs.isEmpty {
                    done += 1
                    try step(done, total)
                }
            }
        }
    }

    static func value(_ generator: ValueGenerator, number: Int, rng: inout SeededGenerator) -> Value {
        switch generator {
        case .sequence(let start, let step): return .integer(start + Int64(number - 1) * step)
        case .text(let pattern): return .string(pattern.replacingOccurrences(of: "{n}", with: String(number)))
        case .choice(let values): return values.isEmpty ? .null : values[Int.random(in: 0..<values.count, using: &rng)]
        case .uniformInt(let range, let divisor):
            let drawn = Int.random(in: range, using: &rng)
            return divisor == 1 ? .integer(Int64(drawn)) : .double(Double(drawn) / Double(divisor))
        case .normal(let mean, let deviation):
            // Box–Muller: two uniform draws for one normal value.
            let u = Double.random(in: Double.ulpOfOne..<1, using: &rng)
            let v = Double.random(in: 0..<1, using: &rng)
            return .double(mean + deviation * (-2 * log(u)).squareRoot() * cos(2 * .pi * v))
        case .zipfInt(let max, let exponent): return .integer(Int64(zipf(max: max, exponent: exponent, rng: &rng)))
        case .dates(let start, let step): return .date(start.addingTimeInterval(Double(number - 1) * step))
        case .constant(let value): return value
        }
    }

    /// A number from 1 to `max` by Zipf's law (inverse transform on the
    /// cumulative weights 1/k^s).
    static func zipf(max: Int, exponent: Double, rng: inout SeededGenerator) -> Int {
        guard max > 1 else { return 1 }
        let weights = (1...max).map { 1 / pow(Double($0), exponent) }
        var target = Double.random(in: 0..<weights.reduce(0, +), using: &rng)
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target < 0 { return index + 1 }
        }
        return max
    }

    /// (source, destination) pairs for a fan-out; what is drawn depends on
    /// the numbers of sources and destinations only.
    static func pairs<ID>(_ sources: [ID], _ destinations: [ID], _ fanOut: FanOut, rng: inout SeededGenerator) -> [(ID, ID)] {
        guard !sources.isEmpty, !destinations.isEmpty else { return [] }
        /// `k` distinct destinations at random (none for a negative `k`).
        func drawn(_ k: Int) -> [ID] {
            var chosen = Array(destinations.indices)
            chosen.shuffle(using: &rng)
            return chosen.prefix(max(0, min(k, destinations.count))).sorted().map { destinations[$0] }
        }
        switch fanOut {
        case .all: return sources.flatMap { source in destinations.map { (source, $0) } }
        case .fixed(let k):
            return sources.enumerated().flatMap { number, source in
                (0..<max(0, min(k, destinations.count))).map { (source, destinations[(number + $0) % destinations.count]) }
            }
        case .uniform(let range): return sources.flatMap { source in drawn(Int.random(in: range, using: &rng)).map { (source, $0) } }
        case .zipf(let max, let exponent):
            return sources.flatMap { source in drawn(zipf(max: max, exponent: exponent, rng: &rng)).map { (source, $0) } }
        case .roundRobin: return destinations.enumerated().map { (sources[$0.offset % sources.count], $0.element) }
        }
    }
}

extension DataSetKind {
    /// A data set from a description (``DataSetSpec``).
    public init(name: String, model: Model, generatorVersion: Int = 1, spec: DataSetSpec) {
        self.init(
            name: name, model: model, generatorVersion: generatorVersion,
            expectedRows: { scale in spec.expectedRows(model: model, scale: scale) },
            build: { store, scale, seed, step in try spec.build(into: store, scale: scale, seed: seed, step: step) })
    }
}
