/// `toMany CONTAINS object`: whether a to-many relationship holds an
/// object. It means `ANY toMany == object`, and both evaluators treat it as
/// that: in SQL, the join table's rows for the object read through its
/// index (a many-to-many) or the destination by primary key (a
/// one-to-many); in memory, the relationship's objects. `CONTAINS` with a
/// string is the substring test, as before.
extension Model {
    /// The to-many relationship that a key path (`selfies`,
    /// `company.employees`) ends at, through to-one steps from `entity`;
    /// nil when it ends at an attribute or a to-one, or does not resolve.
    func toManyRelationship(at parts: [String], from entity: EntityDescription) -> RelationshipDescription? {
        var current = entity
        for (index, part) in parts.enumerated() {
            guard let relationship = current.relationship(named: part) else { return nil }
            if index == parts.count - 1 { return relationship.isToMany ? relationship : nil }
            if relationship.isToMany { return nil }
            current = destination(of: relationship)
        }
        return nil
    }
}

extension Comparison {
    /// Whether this is `keyPath CONTAINS …` without a quantifier: the form
    /// that tests a to-many relationship's membership when `keyPath` ends at
    /// one.
    var isContainsOnKeyPath: Bool {
        guard op == .contains, quantifier == nil, case .keyPath = lhs else { return false }
        return true
    }

    /// `ANY keyPath == rhs`: what `keyPath CONTAINS rhs` means when the key
    /// path ends at a to-many relationship.
    var asAnyEqual: Comparison {
        Comparison(lhs: lhs, op: .equal, rhs: rhs, quantifier: .any)
    }
}
