import Synchronization

extension SQLShape {
    private static let table = Mutex<[String: Int]>([:])

    /// The shape of `sql` and a number for it, the same number for every
    /// statement of that shape in this process. Meant to be called once per
    /// prepared statement, not per execution.
    public static func intern(_ sql: String) -> (shape: String, id: Int) {
        let shape = normalize(sql)
        let id = table.withLock { table in
            if let id = table[shape] { return id }
            let id = table.count
            table[shape] = id
            return id
        }
        return (shape, id)
    }
}
