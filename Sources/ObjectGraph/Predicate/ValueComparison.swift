import Foundation

/// How two values compare: one definition for in-memory evaluation and
/// sorting that matches SQLite's (numbers numerically, text and blobs by
/// their bytes, as SQLite's BINARY collation does).
enum ValueComparison {
    /// -1, 0 or 1; nil when either side is nil or the types do not compare.
    static func compare(_ lhs: Value, _ rhs: Value) -> Int? {
        switch (lhs, rhs) {
        case (.null, _), (_, .null):
            return nil
        case (.integer(let a), .integer(let b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let a), .string(let b)):
            return bytes(a.utf8, b.utf8)
        case (.data(let a), .data(let b)):
            return bytes(a, b)
        case (.uuid(let a), .uuid(let b)):
            return withUnsafeBytes(of: a.uuid) { x in withUnsafeBytes(of: b.uuid) { y in bytes(x, y) } }
        default:
            guard let a = number(lhs), let b = number(rhs) else { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        }
    }

    /// Equality as `==` in a predicate: nil equals only nil.
    static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
        if lhs.isNull || rhs.isNull { return lhs.isNull && rhs.isNull }
        return compare(lhs, rhs) == 0
    }

    /// Sort order: nil first (as SQLite sorts NULL), then `compare`.
    static func ascending(_ lhs: Value, _ rhs: Value) -> Int {
        switch (lhs.isNull, rhs.isNull) {
        case (true, true): return 0
        case (true, false): return -1
        case (false, true): return 1
        default: return compare(lhs, rhs) ?? 0
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .bool(let v): v ? 1 : 0
        case .date(let v): v.timeIntervalSince1970
        default: nil
        }
    }

    private static func bytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }
}
