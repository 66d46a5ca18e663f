import CSQLite
import Synchronization

/// The SQL functions predicates compile to where SQLite has no operator
/// with the same meaning (Debian's SQLite has no REGEXP, and its LIKE and
/// NOCASE know only ASCII):
///
/// - `faultline_fold(text, options)`: ``StringMatching/fold(_:_:)``
///   (`options`: 1 case, 2 diacritics, 3 both); NULL stays NULL.
/// - `faultline_matches(text, pattern, options)`: 1 when the whole text
///   matches the ICU regular expression, else 0; NULL when text is NULL.
/// - `faultline_like(text, pattern, options)`: the same for a LIKE pattern
///   (``LikePattern``), as Core Data's `NSCoreDataLike`.
///
/// The two matching functions compile their pattern once per statement
/// (SQLite's auxiliary data on the pattern argument) and match it per row.
/// Registered on every connection of a store.
enum PredicateFunctions {
    /// Counts the rows the pattern functions matched (``Store/patternMatches``):
    /// what the order of predicate terms saves shows here.
    final class MatchCounter: Sendable {
        let count = Atomic<Int>(0)
    }

    /// - Parameter counter: counts the rows `faultline_like` and
    ///   `faultline_matches` match; it must outlive the connection.
    static func register(on connection: Connection, counting counter: MatchCounter) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        let user = Unmanaged.passUnretained(counter).toOpaque()
        sqlite3_create_function_v2(connection.handle, "faultline_fold", 2, flags, nil, fold, nil, nil, nil)
        sqlite3_create_function_v2(connection.handle, "faultline_matches", 3, flags, user, matches, nil, nil, nil)
        sqlite3_create_function_v2(connection.handle, "faultline_like", 3, flags, user, like, nil, nil, nil)
    }

    private static func countMatch(_ context: OpaquePointer?) {
        guard let user = sqlite3_user_data(context) else { return }
        Unmanaged<MatchCounter>.fromOpaque(user).takeUnretainedValue().count.wrappingAdd(1, ordering: .relaxed)
    }

    /// The object compiled from argument `index` for this statement: kept
    /// by SQLite as auxiliary data while the argument stays the same.
    private static func compiled<T: AnyObject>(
        _ context: OpaquePointer?, _ index: Int32, make: () -> T?
    ) -> T? {
        if let kept = sqlite3_get_auxdata(context, index) {
            return Unmanaged<AnyObject>.fromOpaque(kept).takeUnretainedValue() as? T
        }
        guard let made = make() else { return nil }
        sqlite3_set_auxdata(context, index, Unmanaged<AnyObject>.passRetained(made).toOpaque(), releaseCompiled)
        return made
    }

    private static let releaseCompiled: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
        if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
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
        countMatch(context)
        let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(arguments[2])))
        guard let expression = compiled(context, 1, make: { StringMatching.regularExpression(pattern, options) }) else {
            sqlite3_result_int(context, 0)
            return
        }
        sqlite3_result_int(context, StringMatching.matches(value, expression, options) ? 1 : 0)
    }

    private static let like: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        guard let arguments, let value = text(arguments[0]), let pattern = text(arguments[1]) else {
            sqlite3_result_null(context)
            return
        }
        countMatch(context)
        let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(arguments[2])))
        let compiled = compiled(context, 1) { LikePattern(pattern, options: options) }!
        sqlite3_result_int(context, compiled.matches(value) ? 1 : 0)
    }
}
