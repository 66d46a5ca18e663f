import Foundation

/// The shape of a SQL statement: the statement with its values taken out,
/// so that statements differing only in values share one shape.
///
/// - string, number and blob literals and parameters (`?`, `?1`, `:name`,
///   `@name`, `$name`) become `?`;
/// - `IN (?, ?, …)` lists of any length fold to `IN (…)`;
/// - runs of white space fold to one space, and the ends are trimmed;
/// - identifiers (`t0`, `"Person"`) and keywords stay as written.
///
/// One normalizer serves the recorder, the reports and the log viewer.
public enum SQLShape {
    /// The shape of `sql`, by the rules above: a condition
    /// `a = 'x' AND b IN (1, 2)` becomes `a = ? AND b IN (…)`.
    public static func normalize(_ sql: String) -> String {
        var output: [UInt8] = []
        var input = Array(sql.utf8)
        input.append(0)
        output.reserveCapacity(input.count)
        var index = 0
        var pendingSpace = false

        func emit(_ byte: UInt8) {
            if pendingSpace, !output.isEmpty { output.append(0x20) }
            pendingSpace = false
            output.append(byte)
        }

        func isIdentifierByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte >= 0x80
        }

        while input[index] != 0 {
            let byte = input[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                pendingSpace = true
                index += 1
            case 0x27:  // 'string'
                index += 1
                while input[index] != 0 {
                    if input[index] == 0x27 {
                        if input[index + 1] == 0x27 { index += 2; continue }
                        index += 1
                        break
                    }
                    index += 1
                }
                emit(0x3F)
            case 0x22, 0x60, 0x5B:  // "identifier", `identifier`, [identifier]
                let close: UInt8 = byte == 0x5B ? 0x5D : byte
                emit(byte)
                index += 1
                while input[index] != 0 {
                    output.append(input[index])
                    if input[index] == close {
                        if close != 0x5D, input[index + 1] == close {
                            output.append(close)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    index += 1
                }
            case 0x3F, 0x3A, 0x40, 0x24:  // ?NNN, :name, @name, $name
                index += 1
                while isIdentifierByte(input[index]) { index += 1 }
                emit(0x3F)
            case _ where (byte | 0x20) == 0x78 && input[index + 1] == 0x27 && (pendingSpace || !(output.last.map(isIdentifierByte) ?? false)):
                index += 2  // x'blob'
                while input[index] != 0, input[index] != 0x27 { index += 1 }
                if input[index] == 0x27 { index += 1 }
                emit(0x3F)
            case 0x30...0x39 where output.last.map({ !isIdentifierByte($0) || pendingSpace }) ?? true:
                // A number (not part of an identifier such as t0).
                index += 1
                while isIdentifierByte(input[index]) || input[index] == 0x2E
                    || ((input[index] == 0x2B || input[index] == 0x2D) && (input[index - 1] | 0x20) == 0x65)
                {
                    index += 1
                }
                emit(0x3F)
            case 0x2E where (0x30...0x39).contains(input[index + 1]) && !(output.last.map(isIdentifierByte) ?? false):
                index += 1  // .5
                while isIdentifierByte(input[index]) { index += 1 }
                emit(0x3F)
            default:
                emit(byte)
                index += 1
            }
        }
        if !output.contains(where: { $0 >= 0x80 }) { return foldInLists(ascii: output) }
        return foldInLists(String(decoding: output, as: UTF8.self))
    }

    /// ``foldInLists(_:)`` of an ASCII text, over its bytes: `IN (?` found
    /// in any case as Foundation's case-insensitive search finds it in ASCII.
    private static func foldInLists(ascii text: [UInt8]) -> String {
        let count = text.count
        var previous: UInt8 = 0
        guard text.contains(where: { byte in
            defer { previous = byte }
            return previous == UInt8(ascii: "(") && byte == UInt8(ascii: "?")
        }) else { return String(decoding: text, as: UTF8.self) }
        func listStarts(at index: Int) -> Bool {
            text[index] | 0x20 == UInt8(ascii: "i") && text[index + 1] | 0x20 == UInt8(ascii: "n") && text[index + 2] == UInt8(ascii: " ")
                && text[index + 3] == UInt8(ascii: "(") && text[index + 4] == UInt8(ascii: "?")
        }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var rest = 0
        var index = 0
        while index + 5 <= count {
            guard listStarts(at: index) else {
                index += 1
                continue
            }
            result.append(contentsOf: text[rest..<index])
            var cursor = index + 5
            while cursor < count, text[cursor] == UInt8(ascii: ",") || text[cursor] == UInt8(ascii: " ") || text[cursor] == UInt8(ascii: "?") {
                cursor += 1
            }
            if cursor < count, text[cursor] == UInt8(ascii: ")") {
                result.append(contentsOf: text[index..<(index + 2)])
                result.append(contentsOf: " (…)".utf8)
                rest = cursor + 1
            } else {
                result.append(contentsOf: text[index..<(index + 5)])
                rest = index + 5
            }
            index = rest
        }
        result.append(contentsOf: text[rest...])
        return String(decoding: result, as: UTF8.self)
    }

    /// `IN (?, ?, ?)` → `IN (…)`, and `IN (?)` too.
    private static func foldInLists(_ text: String) -> String {
        // A byte scan for "(?": most statements have no list to fold, and
        // Foundation's `contains` would cost more than the folding.
        var previous: UInt8 = 0
        guard text.utf8.contains(where: { byte in
            defer { previous = byte }
            return previous == UInt8(ascii: "(") && byte == UInt8(ascii: "?")
        }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let range = rest.range(of: "IN (?", options: .caseInsensitive) {
            result += rest[..<range.lowerBound]
            var cursor = range.upperBound
            var folded = true
            while cursor < rest.endIndex {
                let character = rest[cursor]
                if character == ")" { break }
                if character == "," || character == " " || character == "?" {
                    cursor = rest.index(after: cursor)
                    continue
                }
                folded = false
                break
            }
            if folded, cursor < rest.endIndex {
                result += rest[range.lowerBound..<rest.index(range.lowerBound, offsetBy: 2)] + " (…)"
                rest = rest[rest.index(after: cursor)...]
            } else {
                result += rest[range]
                rest = rest[range.upperBound...]
            }
        }
        result += rest
        return result
    }
}
