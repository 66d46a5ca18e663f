import Foundation

/// A JSON input's text (a report, a thresholds, noise floor or insights
/// file) read once before it is parsed, for what a parsed object can no longer tell, each
/// named with its key path:
///
/// - a key given twice in one object (`"sqlStatements": 3,
///   "sqlStatements": 5`): JSON readers differ on which one counts (this
///   one took the first, jq and Python take the last), so the file is
///   refused rather than read one way here and another way there;
/// - a number beyond a 64-bit floating-point number (`1e400`), which the
///   JSON reader refuses without saying where it is.
///
/// Text that is not JSON is left to the JSON reader, which says why.
public enum JSONTextScan {
    /// The first problem, as "key.path: what is wrong", or nil.
    public static func problem(in data: Data) -> String? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Stop) {
                try scanner.value(at: [], depth: 0)
                return nil
            } catch {
                guard case .problem(let text) = error else { return nil }
                return text
            }
        }
    }

    /// Why the scan stopped early.
    private enum Stop: Error {
        case problem(String)
        /// Not JSON, or nested deeper than the scan goes: the JSON reader's to judge.
        case leftToTheReader
    }

    /// Deeper than this is left to the JSON reader (a report is a few levels deep).
    private static let maximumDepth = 200

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func value(at path: [JSONKeyPath.Step], depth: Int) throws(Stop) {
            guard depth < JSONTextScan.maximumDepth else { throw .leftToTheReader }
            skipSpace()
            guard offset < bytes.count else { throw .leftToTheReader }
            switch bytes[offset] {
            case UInt8(ascii: "{"): try object(at: path, depth: depth)
            case UInt8(ascii: "["): try array(at: path, depth: depth)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(at: path)
            default: try literal()
            }
        }

        private mutating func object(at path: [JSONKeyPath.Step], depth: Int) throws(Stop) {
            offset += 1
            var keys = Set<String>()
            skipSpace()
            if try take(UInt8(ascii: "}")) { return }
            while true {
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw .leftToTheReader }
                let key = try string()
                let keyPath = path + [.key(key)]
                guard keys.insert(key).inserted else {
                    throw .problem("\(JSONKeyPath(keyPath).text): the key is given twice (JSON readers differ on which one counts)")
                }
                skipSpace()
                guard try take(UInt8(ascii: ":")) else { throw .leftToTheReader }
                try value(at: keyPath, depth: depth + 1)
                skipSpace()
                if try take(UInt8(ascii: ",")) { continue }
                if try take(UInt8(ascii: "}")) { return }
                throw .leftToTheReader
            }
        }

        private mutating func array(at path: [JSONKeyPath.Step], depth: Int) throws(Stop) {
            offset += 1
            skipSpace()
            if try take(UInt8(ascii: "]")) { return }
            var index = 0
            while true {
                try value(at: path + [.index(index)], depth: depth + 1)
                index += 1
                skipSpace()
                if try take(UInt8(ascii: ",")) { continue }
                if try take(UInt8(ascii: "]")) { return }
                throw .leftToTheReader
            }
        }

        /// A string's text, its escapes read as JSON reads them.
        private mutating func string() throws(Stop) -> String {
            let start = offset
            offset += 1
            var escaped = false
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    offset += 1
                } else if byte == UInt8(ascii: "\"") {
                    let literal = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                    guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: literal.dropFirst().dropLast()), as: UTF8.self) }
                    guard let text = try? JSONSerialization.jsonObject(with: Data(literal), options: .fragmentsAllowed) as? String else {
                        throw .leftToTheReader
                    }
                    return text
                }
            }
            throw .leftToTheReader
        }

        private mutating func number(at path: [JSONKeyPath.Step]) throws(Stop) {
            let start = offset
            while offset < bytes.count, Self.isNumberByte(bytes[offset]) { offset += 1 }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            guard let number = Double(text) else { throw .leftToTheReader }
            if number.isInfinite {
                throw .problem("\(JSONKeyPath(path).text): the number \(text) is out of range (beyond a 64-bit floating-point number)")
            }
        }

        private static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }

        /// `true`, `false`, `null`.
        private mutating func literal() throws(Stop) {
            let start = offset
            while offset < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[offset]) { offset += 1 }
            guard offset > start else { throw .leftToTheReader }
        }

        private mutating func skipSpace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        /// Takes `byte` when it comes next.
        private mutating func take(_ byte: UInt8) throws(Stop) -> Bool {
            guard offset < bytes.count else { throw .leftToTheReader }
            guard bytes[offset] == byte else { return false }
            offset += 1
            return true
        }
    }
}
