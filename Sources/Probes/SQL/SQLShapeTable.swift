import Synchronization

extension SQLShape {
    /// What is interned so far, under one lock: each shape's number and
    /// each number's shape, and each exact text's number with its shape's
    /// (-1 while only ``internText(_:)`` has seen the text).
    private struct Interned {
        var numbers: [String: Int] = [:]
        var shapes: [String] = []
        var texts: [String: (text: Int, shape: Int)] = [:]

        /// The number of the text `sql`, noting its shape's number when
        /// known (`shape`, or -1).
        mutating func textNumber(_ sql: String, shape: Int) -> Int {
            if let known = texts[sql] {
                if known.shape < 0, shape >= 0 { texts[sql] = (known.text, shape) }
                return known.text
            }
            let number = texts.count
            texts[sql] = (number, shape)
            return number
        }
    }

    private static let table = Mutex(Interned())

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

    /// ``intern(_:)`` and ``internText(_:)`` of one statement's text at
    /// once: a text seen before (a statement prepared again, on another
    /// connection or store) is found by one lookup, not normalized again.
    /// Meant to be called once per prepared statement.
    public static func internStatement(_ sql: String) -> (shape: String, shapeID: Int, textID: Int) {
        let known = table.withLock { table -> (shape: String, shapeID: Int, textID: Int)? in
            guard let entry = table.texts[sql], entry.shape >= 0 else { return nil }
            return (table.shapes[entry.shape], entry.shape, entry.text)
        }
        if let known { return (known.shape == sql ? sql : known.shape, known.shapeID, known.textID) }
        let (shape, shapeID) = intern(sql)
        let textID = table.withLock { $0.textNumber(sql, shape: shapeID) }
        return (shape, shapeID, textID)
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
        table.withLock { $0.textNumber(sql, shape: -1) }
    }
}
