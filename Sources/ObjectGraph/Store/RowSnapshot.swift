import Probes

/// The values of one row as the store last read or wrote them.
public struct RowSnapshot: Sendable, Equatable {
    /// Attribute values, in the entity's attribute order.
    public let attributes: [Value]
    /// One entry per relationship of the entity: the destination of a to-one,
    /// nil for a to-many (or a to-one that is not set). Empty when the
    /// entity has no to-one relationship, so that such a row allocates no
    /// array of nils.
    public let toOne: [ObjectID?]
    /// The store generation the row was read at: an older read never
    /// replaces a newer snapshot.
    let generation: UInt64
    /// When the snapshot was taken, on the monotonic clock.
    let timestamp: UInt64

    init(attributes: [Value], toOne: [ObjectID?], generation: UInt64, timestamp: UInt64 = ProbeClock.now()) {
        self.attributes = attributes
        self.toOne = toOne
        self.generation = generation
        self.timestamp = timestamp
    }

    /// Reads a snapshot of an object of `entity` (its own entity, not a
    /// parent's) from a row whose first columns are
    /// `entity.sql.snapshotColumns` (primary key first), at the positions
    /// its ``TableLayout`` gives.
    static func read(_ row: Row, entity: EntityDescription, model: Model, generation: UInt64) -> RowSnapshot {
        let layout = entity.layout
        var attributes: [Value] = []
        attributes.reserveCapacity(entity.attributes.count)
        for (offset, attribute) in entity.attributes.enumerated() {
            attributes.append(Value.read(row, layout.attributePositions[offset], as: attribute.type))
        }
        var toOne: [ObjectID?] = []
        if !entity.toOneIndexes.isEmpty { toOne = Array(filledWith: nil, count: entity.relationships.count) }
        for index in entity.toOneIndexes {
            if let key = row.optionalInt64(layout.toOneKeyPositions[index]) {
                var destination = model.entities[entity.relationships[index].destinationIndex]
                let entityPosition = layout.toOneEntityPositions[index]
                if entityPosition >= 0, let code = row.optionalInt64(entityPosition) {
                    destination = model.entity(code: code, kindOf: destination)
                }
                toOne[index] = ObjectID(entity: destination, primaryKey: key)
            }
        }
        return RowSnapshot(attributes: attributes, toOne: toOne, generation: generation)
    }

    /// Whether both snapshots hold the same values and to-one destinations,
    /// whenever they were read.
    public static func == (lhs: RowSnapshot, rhs: RowSnapshot) -> Bool {
        lhs.attributes == rhs.attributes && lhs.toOne == rhs.toOne
    }
}
