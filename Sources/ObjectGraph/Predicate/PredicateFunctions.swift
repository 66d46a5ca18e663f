import CSQLite

/// The SQL functions predicates compile to where SQLite has no operator
/// with the same meaning (Debian's SQLite has no REGEXP, and its LIKE and
/// NOCASE know only ASCII):
///
/// - `faultline_fold(text, options)`: ``StringMatching/fold(_:_:)``
///   (`options`: 1 case, 2 diacritics, 3 both); NULL stays NULL.
/// - `faultline_matches(text, pattern, options)`: 1 when the whole text
///   matches the ICU regular expression, else 0; NULL when text is NULL.
///
/// Registered on every connection of a store.
enum PredicateFunctions {
    static func register(on connection: Connection) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(connection.handle, "faultline_fold", 2, flags, nil, fold, nil, nil, nil)
        sqlite3_create_function_v2(connection.handle, "faultline_matches", 3, flags, nil, matches, nil, nil, nil)
    }

    private static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    private static let fold: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        guard let arguments, let value = text(arguments[0]) else {
            sqlite3_result_null(context)
            return
        }
        let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(arguments[1])))
        var folded = StringMatching.fold(value, options)
        folded.withUTF8 { bytes in
            sqlite3_result_text64(
                context, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                faultline_sqlite_transient, UInt8(SQLITE_UTF8))
        }
    }

    private static let matches: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        guard let arguments, let value = text(arguments[0]), let pattern = text(arguments[1]) else {
            sqlite3_result_null(context)
            return
        }
        let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(arguments[2])))
        sqlite3_result_int(context, StringMatching.matches(value, pattern, options) ? 1 : 0)
    }
}
