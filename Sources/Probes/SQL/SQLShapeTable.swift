import Synchronization

extension SQLShape {
    /// The shapes interned so far: each one's number, and each number's
    /// text.
    private struct Interned {
        var numbers: [String: Int] = [:]
        var shapes: [String] = []
    }

    private static let table = Mutex(Interned())
    private static let texts = Mutex<[String: Int]>([:])

    /// The shape of `sql` and a number for it, the same number for every
    /// statement of that shape in this process. Meant to be called once per
    /// prepared statement, not per execution. A statement that is its own
    /// shape (values bound, white space folded) gets `sql` itself back, so
    /// that telling whether a statement's text is its shape's (as the LTTng
    /// sink does for each statement) compares two references to one string.
    public static func intern(_ sql: String) -> (shape: String, id: Int) {
        var shape = normalize(sql)
        if shape == sql { shape = sql }
        let id = table.withLock { table in
            if let id = table.numbers[shape] { return id }
            let id = table.shapes.count
            table.numbers[shape] = id
            table.shapes.append(shape)
            return id
        }
        return (shape, id)
    }

    /// The text of the shape ``intern(_:)`` numbered `id` in this process;
    /// `""` for a number it never gave. What a sink lent a statement
    /// without its shape's text reads, once per shape.
    public static func text(ofShape id: Int) -> String {
        table.withLock { table in table.shapes.indices.contains(id) ? table.shapes[id] : "" }
    }

    /// A number for the exact text of `sql`, the same for every statement
    /// with that text in this process: what counts repetitions without
    /// hashing the text at every execution. Meant to be called once per
    /// prepared statement.
    public static func internText(_ sql: String) -> Int {
        texts.withLock { texts in
            if let id = texts[sql] { return id }
            let id = texts.count
            texts[sql] = id
            return id
        }
    }
}
