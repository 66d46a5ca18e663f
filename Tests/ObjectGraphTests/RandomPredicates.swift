import Foundation
@testable import ObjectGraph

/// A small seeded generator (SplitMix64), so that a failing case is
/// reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random data and predicates over the `Sample` entity (every attribute
/// optional), with nil, empty strings and non-ASCII text.
enum RandomPredicates {
    static let strings = [
        "", "a", "A", "é", "É", "e\u{301}", "straße", "STRASSE", "日本", "Ωmega", "x*y", "a?b", "[b]", "Zoë", "zoe",
        "quote\"s", "back\\slash", "ab", "Ab", "abc",
    ]
    static let patterns = strings + ["*", "?", "*e*", "É*", "*ß*", "a*", "*b", "?b*", "[*"]
    static let regexes = ["a.*", ".*b", "[a-z]+", "É|e", ".", ".*"]
    static let dates = [0.0, 86_400.0, 1_000_000_000.5].map { Date(timeIntervalSince1970: $0) }

    static func value(for key: String, _ rng: inout SeededGenerator) -> Value {
        if Int.random(in: 0..<6, using: &rng) == 0 { return .null }
        switch key {
        case "i16", "i32", "i64": return .integer(Int64.random(in: -3...3, using: &rng))
        case "double": return .double(Double(Int.random(in: -6...6, using: &rng)) / 2)
        case "bool": return .bool(Bool.random(using: &rng))
        case "date": return .date(dates.randomElement(using: &rng)!)
        default: return .string(strings.randomElement(using: &rng)!)
        }
    }

    static let keys = ["i16", "i32", "i64", "double", "bool", "string", "date"]

    static func comparison(_ rng: inout SeededGenerator) -> ObjectPredicate {
        let key = keys.randomElement(using: &rng)!
        if key == "string", Bool.random(using: &rng) {
            let op: ComparisonOperator = [.like, .contains, .beginsWith, .endsWith, .matches].randomElement(using: &rng)!
            let options = ComparisonOptions(rawValue: Int.random(in: 0...3, using: &rng))
            let text = op == .matches ? regexes.randomElement(using: &rng)! : patterns.randomElement(using: &rng)!
            return .compare(.keyPath(key), op, .value(.string(text)), options: options)
        }
        var operators: [ComparisonOperator] = [.equal, .notEqual, .in, .between]
        if key != "bool" { operators += [.less, .lessOrEqual, .greater, .greaterOrEqual] }
        let op = operators.randomElement(using: &rng)!
        let options = key == "string" ? ComparisonOptions(rawValue: Int.random(in: 0...3, using: &rng)) : []
        let rhs: ObjectExpression = switch op {
        case .in: .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in .value(value(for: key, &rng)) })
        case .between: .list([.value(value(for: key, &rng)), .value(value(for: key, &rng))])
        default: .value(value(for: key, &rng))
        }
        return .compare(.keyPath(key), op, rhs, options: options)
    }

    static func predicate(depth: Int, _ rng: inout SeededGenerator) -> ObjectPredicate {
        guard depth > 0 else { return comparison(&rng) }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .and((0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(depth: depth - 1, &rng) })
        case 1: return .or((0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(depth: depth - 1, &rng) })
        case 2: return .not(predicate(depth: depth - 1, &rng))
        default: return comparison(&rng)
        }
    }

    /// Inserts `count` samples with random values (nil often).
    static func populate(_ store: Store, count: Int, _ rng: inout SeededGenerator) throws {
        let context = ObjectContext(store: store, name: "random")
        try context.perform {
            for _ in 0..<count {
                let sample = try context.insert(Sample.self)
                for key in keys { try sample.setValue(value(for: key, &rng), forKey: key) }
            }
            try context.save()
        }
    }
}
