import CTracepoints

/// An executed statement's bound values as a sink that writes them out
/// gets them (``FastPathEventSink/receiveStatement(_:sql:sqlIsShape:arguments:purpose:queryPlan:event:)``):
/// nothing when no sink asked for them, the one integer most statements
/// bind (a key lookup's) as it is, so that a sink can write its digits
/// without a `String` being made for it, else the values, rendered only
/// when a sink reads them.
public enum StatementArguments: Sendable {
    /// No sink asked for bound values, or there are none.
    case none
    /// One bound value, an integer.
    case integer(Int64)
    /// The values, rendered when read (``text``). Boxed (`indirect`), so
    /// that the enum is a plain value: with the existential inline it had
    /// to be copied through memory whenever it was switched on, a call and
    /// a copy per traced statement.
    indirect case values(any BoundValues)
    /// The values in SQL literal syntax, `", "`-separated
    /// (``StatementTexts/joined(_:)``).
    case rendered(String)

    /// The values as one text, as ``StatementTexts/arguments`` has them.
    public var text: String {
        switch self {
        case .none: ""
        case .integer(let value): String(value)
        case .values(let values): values.renderedText
        case .rendered(let text): text
        }
    }

    /// Runs `body` with the text as a NUL-terminated C string; an integer's
    /// digits are written on the stack, not into a `String`.
    @inline(__always)
    func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        switch self {
        case .none:
            return body(Self.emptyCString)
        case .integer(let value):
            // 20 digits and a sign at most, and the NUL.
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 24) { buffer in
                body(Self.write(value, into: buffer.baseAddress!))
            }
        case .values(let values):
            return values.renderedText.withCString(body)
        case .rendered(let text):
            return text.withCString(body)
        }
    }

    /// Writes `value`'s decimal digits, NUL-terminated, at the end of the
    /// 24 bytes at `buffer`; returns where they start.
    @inline(__always)
    static func write(_ value: Int64, into buffer: UnsafeMutablePointer<CChar>) -> UnsafePointer<CChar> {
        var position = 23
        buffer[position] = 0
        // The magnitude as unsigned: Int64.min has no positive Int64.
        var magnitude = value.magnitude
        repeat {
            position -= 1
            buffer[position] = CChar(48 + Int(magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        if value < 0 {
            position -= 1
            buffer[position] = 45  // "-"
        }
        return UnsafePointer(buffer + position)
    }

    /// `""` as a C string, for the tracepoints' empty fields: a C
    /// constant (a lazily made Swift global costs a once-check per read,
    /// and a `StaticString`'s empty literal need not be stored as a
    /// pointer to its bytes).
    @inline(__always)
    static var emptyCString: UnsafePointer<CChar> { faultline_empty_string }
}

/// A statement's bound values as their producer has them (the engine's
/// `DatabaseValue`s), rendered only when a sink reads them.
public protocol BoundValues: Sendable {
    /// The values in SQL literal syntax, `", "`-separated
    /// (``StatementTexts/joined(_:)``).
    var renderedText: String { get }
}
