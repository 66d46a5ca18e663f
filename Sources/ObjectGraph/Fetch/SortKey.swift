/// One key of a fetch's sort order: a key path (through to-one
/// relationships) and a direction. nil sorts first when ascending, as in
/// SQLite.
public struct SortKey: Sendable, Hashable, CustomStringConvertible {
    public var keyPath: String
    public var ascending: Bool

    public init(_ keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    public var description: String { "\(keyPath) \(ascending ? "ASC" : "DESC")" }
}
