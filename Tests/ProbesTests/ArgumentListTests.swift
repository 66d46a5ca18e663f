import Probes
import Testing
import Scenarios

/// `ArgumentList`, the repetition table's key: equal exactly when the
/// `[String]`s are (Swift's string equality, canonical equivalence
/// included), and equal lists hash alike.
@Suite struct ArgumentListTests {
    /// Pieces of values: digits, SQL literals, the three ASCII characters
    /// a non-ASCII one equals (K, ;, `) and those (Kelvin sign, Greek
    /// question mark, Greek varia), é composed and decomposed, texts
    /// longer than a word, an empty one.
    static let pieces = [
        "0", "1", "42", "7", "NULL", "'a'", "'b, c'", "X'00'", "K", "\u{212A}", ";", "\u{037E}", "`", "\u{1FEF}", "\u{E9}",
        "e\u{301}", "'a longer text value'", "12345678", "", ", ",
    ]

    static func value(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func list(_ generator: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 1...3, using: &generator)).map { _ in value(&generator) }
    }

    @Test func equalExactlyWhenTheListsAreAndEqualListsHashAlike() {
        var generator = SeededGenerator(seed: 20_261_125)
        let lists = (0..<600).map { _ in Self.list(&generator) }
        for a in lists {
            for b in lists.prefix(200) {
                let (x, y) = (ArgumentList(a), ArgumentList(b))
                #expect((x == y) == (a == b), "\(a) against \(b)")
                if a == b { #expect(x.hash == y.hash && x.hashValue == y.hashValue, "\(a) against \(b)") }
            }
        }
    }

    /// Counted in a dictionary, they give what `[String]` keys give.
    @Test func aDictionaryCountsAsOneOfArrays() {
        var generator = SeededGenerator(seed: 7)
        var arrays: [[String]: Int] = [:]
        var keys: [ArgumentList: Int] = [:]
        for _ in 0..<5_000 {
            let list = Self.list(&generator)
            arrays[list, default: 0] += 1
            keys[ArgumentList(list), default: 0] += 1
        }
        #expect(keys.count == arrays.count)
        for (key, count) in keys { #expect(arrays[key.values] == count) }
    }

    /// Values equal as characters but not as bytes are one list, and lists
    /// that differ only in where one value ends are not.
    @Test func spellingsAndBoundaries() {
        #expect(ArgumentList(["K"]) == ArgumentList(["\u{212A}"]))
        #expect(ArgumentList(["x;y"]) == ArgumentList(["x\u{037E}y"]))
        #expect(ArgumentList(["\u{E9}"]) == ArgumentList(["e\u{301}"]))
        #expect(ArgumentList(["ab", "c"]) != ArgumentList(["a", "bc"]))
        #expect(ArgumentList(["ab", "c"]).hash != ArgumentList(["a", "bc"]).hash)
        #expect(ArgumentList(["1"]) != ArgumentList(["1", ""]))
        #expect(ArgumentList(["12345678", "9"]) != ArgumentList(["123456789"]))
    }
}
