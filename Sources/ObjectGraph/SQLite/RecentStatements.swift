/// A small front to a connection's statement cache that finds a prepared
/// statement by where its text is stored, not by hashing the text.
///
/// Why: the engine runs the same few texts again and again (a fault's
/// `SELECT` of every column, a page of a batched fetch), each kept once in
/// the model, so each execution passes a string whose bytes live at the
/// same address. Hashing such a text for the cache's dictionary cost about
/// 700 instructions per statement (a SELECT of many columns), as much as
/// the rest of the engine's work for a fault from the database. Here a hit
/// is an address and a length compared.
///
/// Sound because each entry keeps its string: its bytes cannot be freed or
/// changed while the entry holds them (a shared string's storage is never
/// written in place), so another text cannot show up at that address with
/// that length. Texts short enough to be stored inside the string value
/// itself (15 bytes or fewer), and any without contiguous UTF-8, have no
/// lasting address and are left to the dictionary.
struct RecentStatements {
    private struct Entry {
        let sql: String
        let address: UnsafeRawPointer
        let count: Int
        let statement: Statement
    }

    /// Direct-mapped: each address has one place.
    private static let capacity = 32
    private var entries = [Entry?](repeating: nil, count: capacity)

    /// Where `sql`'s bytes are kept, when that outlasts the call.
    @inline(__always)
    private static func address(of sql: String) -> UnsafeRawPointer? {
        // Longer than a small string can be: the bytes are in a heap
        // object (or a literal's, in the binary), not in the value.
        guard sql.utf8.count > 15 else { return nil }
        return sql.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    @inline(__always)
    private static func place(of address: UnsafeRawPointer) -> Int {
        let bits = UInt(bitPattern: address)
        return Int(truncatingIfNeeded: (bits >> 4 ^ bits >> 9) & UInt(capacity - 1))
    }

    /// The statement kept for the text stored where `sql`'s is.
    @inline(__always)
    func statement(for sql: String) -> Statement? {
        guard let address = Self.address(of: sql), let entry = entries[Self.place(of: address)],
            entry.address == address, entry.count == sql.utf8.count
        else { return nil }
        return entry.statement
    }

    /// Keeps `statement` for `sql` (replacing what had its place).
    mutating func keep(_ statement: Statement, for sql: String) {
        guard let address = Self.address(of: sql) else { return }
        entries[Self.place(of: address)] = Entry(sql: sql, address: address, count: sql.utf8.count, statement: statement)
    }

    mutating func removeAll() {
        for index in entries.indices { entries[index] = nil }
    }
}
