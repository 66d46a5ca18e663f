/// Bound values shown with their statement: Core Data's level 2
/// `details: SQLite bind[0] = "Maui"` and Faultline's `details: bind[0] =
/// 'Maui'` lines, kept per distinct set of values of a shape
/// (``SQLLogAnalysis/ShapeSummary/values``), each set with the executions
/// that bound it, so that duplicates (the same shape with the same
/// values) read apart from the same shape with other values.
///
/// Bounded: the first ``maximumBoundValueSetsShown`` distinct sets of a
/// shape, the first ``maximumBoundValuesShown`` values of each, each value
/// cut at ``maximumBoundValueBytes`` bytes. Executions with later sets are
/// still told apart (``SQLLogAnalysis/ShapeSummary/duplicates`` counts
/// every execution whose values were seen before, up to
/// ``maximumValueSets`` sets).
extension SQLLogAnalyzer {
    /// Distinct sets of values shown per shape: enough to see whether an
    /// N+1 repeats one key or walks many, without a table of every value.
    public static let maximumBoundValueSetsShown = 4
    /// Values shown of one set: a statement's first parameters say which rows it reads.
    public static let maximumBoundValuesShown = 8
    /// Bytes of one value shown (whole characters; longer ones end with `…`).
    public static let maximumBoundValueBytes = 64

    /// Notes the bound values `binds` (hashed as `hash`) of an execution at
    /// `line` of the shape at `index` in the statements table.
    mutating func noteBoundValues(_ binds: [String], hash: ValueHash, shape index: Int, line: Int) {
        if let kept = shapeTable[index].shownValueHashes.firstIndex(of: hash) {
            shapeTable[index].summary.values![kept].executions += 1
            return
        }
        guard shapeTable[index].shownValueHashes.count < Self.maximumBoundValueSetsShown else { return }
        shapeTable[index].shownValueHashes.append(hash)
        let shown = binds.prefix(Self.maximumBoundValuesShown).map(Self.shownValue)
        if shapeTable[index].summary.values == nil { shapeTable[index].summary.values = [] }
        shapeTable[index].summary.values!.append(
            SQLLogAnalysis.BoundValues(values: shown, valuesNotShown: binds.count - shown.count, executions: 1, firstLine: line))
    }

    /// A value as shown: its first ``maximumBoundValueBytes`` bytes, `…` after a cut.
    static func shownValue(_ value: String) -> String {
        guard value.utf8.count > maximumBoundValueBytes else { return value }
        return prefix(value, bytes: maximumBoundValueBytes) + "…"
    }
}
