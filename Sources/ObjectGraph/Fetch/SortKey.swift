/// One key of a fetch's sort order: a key path (through to-one
/// relationships) and a direction. nil sorts first when ascending, as in
/// SQLite.
public struct SortKey: Sendable, Hashable, CustomStringConvertible {
    /// An attribute, or a path to one through to-one relationships
    /// (`owner.name`).
    public var keyPath: String
    /// Smallest first when true, largest first when false.
    public var ascending: Bool

    /// A sort by `keyPath`, ascending unless told otherwise.
    public init(_ keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// `keyPath ASC` or `keyPath DESC`, as fetch events show the order.
    public var description: String { "\(keyPath) \(ascending ? "ASC" : "DESC")" }
}
