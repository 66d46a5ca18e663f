extension SQLDebugLogAnnotation {
    /// `fetch use of <Entity>[ through <key path>] in context <name>: <n> runs, <n> objects, <n>
    /// read; <n> runs read none, up to <n> objects; up to <n> of <n> unread
    /// without batch size, at <site>`: a fetch site's usage (``FetchUsage``).
    package struct FetchUse: Equatable, Sendable {
        package var entity: Range<Int>
        /// The key path after ` through `, for a to-many's destinations.
        package var keyPath: Range<Int>?
        package var context: Range<Int>
        /// The seven numbers in the order written; nil when the line has
        /// another count of numbers (an edited line).
        package var figures: [Int]?
        package var site: SQLDebugLogCallSite

        /// The fields of `annotation` (``Kind/fetchUsage``): the numbers are
        /// the words of digits between the context's colon and the site.
        package init(_ annotation: SQLDebugLogAnnotation, in text: SQLDebugLogBytes) {
            typealias G = SQLDebugLogGrammar
            let range = annotation.range
            let inContext = text.find(G.inContext, in: range) ?? range.upperBound..<range.upperBound
            entity = (range.lowerBound + G.fetchUseOf.utf8CodeUnitCount)..<inContext.lowerBound
            if let through = text.find(G.through, in: entity) {
                keyPath = through.upperBound..<entity.upperBound
                entity = entity.lowerBound..<through.lowerBound
            }
            let colon = text.firstIndex(of: UInt8(ascii: ":"), in: inContext.upperBound..<annotation.phrase.lowerBound)
            context = inContext.upperBound..<colon
            site = SQLDebugLogCallSite(text, annotation.phrase.upperBound..<range.upperBound)
            var numbers: [Int] = []
            for word in text.split(min(colon + 1, annotation.phrase.lowerBound)..<annotation.phrase.lowerBound, separator: 0x20) {
                if let number = text.int(word), number >= 0 { numbers.append(number) }
            }
            figures = numbers.count == 7 ? numbers : nil
        }
    }
}
