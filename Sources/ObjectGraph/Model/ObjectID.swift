import Probes

/// The identity of an object: its entity and its primary key.
///
/// Stable across the contexts of one store and `Sendable`: IDs, not
/// objects, are what cross between contexts and threads. Primary keys are
/// assigned when an object is inserted, so an ID never changes.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The object's entity: the entity it was inserted as, which may be a
    /// subentity of the one a fetch asked for.
    public let entity: EntityDescription
    /// The object's primary key in its entity's table.
    public let primaryKey: Int64

    /// The ID of the object of `entity` with this primary key. Nothing
    /// checks that such an object exists.
    public init(entity: EntityDescription, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// The name of the object's entity.
    public var entityName: String { entity.name }

    /// Whether both IDs have the same primary key and the same entity (the
    /// same ``EntityDescription`` instance, so IDs of two models never match).
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entity === rhs.entity
    }

    /// One word for the hasher: the key and the entity's position mixed
    /// (equal IDs give equal words; the hasher still seeds and mixes).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(bitPattern: primaryKey) &+ UInt64(entity.index) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The hash `Set` and `Dictionary` use, without SipHash: the same word
    /// mixed by ``KeyHash`` (SipHash cost a tenth of a batch update of 1,000
    /// rows).
    public func _rawHashValue(seed: Int) -> Int {
        KeyHash.mix(UInt64(bitPattern: primaryKey) &+ UInt64(entity.index) &* 0x9E37_79B9_7F4A_7C15, seed: seed)
    }

    /// Orders by entity, then primary key: the order saves write in.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.entity.index != rhs.entity.index ? lhs.entity.index < rhs.entity.index : lhs.primaryKey < rhs.primaryKey
    }

    /// `Selfie/p42`, the form events and logs use.
    public var description: String { "\(entity.name)/p\(primaryKey)" }
}
