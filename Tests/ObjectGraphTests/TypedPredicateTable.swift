import Foundation
@testable import ObjectGraph

/// Each `#Predicate` form docs/predicates.md lists, next to its
/// format-string twin and the posts it matches in ``BlogFixtures``' data
/// set, by title in byte order: "", "Batch [*] requests", "Faults in Core
/// Data", "Prefetching", "Untitled", "caffè & café".
enum TypedPredicateTable {
    struct Row: Sendable {
        /// The predicate's body as written, for messages and the golden file.
        let source: String
        let typed: Predicate<Post>
        let format: String
        let arguments: [any PredicateArgument]
        let titles: [String]

        init(_ source: String, _ typed: Predicate<Post>, _ format: String, _ arguments: any PredicateArgument..., titles: [String]) {
            self.source = source
            self.typed = typed
            self.format = format
            self.arguments = arguments
            self.titles = titles
        }
    }

    static let empty = ""
    static let batch = "Batch [*] requests"
    static let faults = "Faults in Core Data"
    static let prefetching = "Prefetching"
    static let untitled = "Untitled"
    static let caffe = "caffè & café"
    static let all = [empty, batch, faults, prefetching, untitled, caffe]

    static var rows: [Row] {
        let name = "Ada"
        let limit: Int32 = 10
        let joined = BlogFixtures.adaJoined
        let tag = "swift"
        let titles = ["Untitled", "Prefetching", "nope"]
        let bodies: [String?] = [nil, "x"]
        let flag = false
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        return [
            // Comparisons of attributes with literals and captured values.
            Row("$0.likes > 10", #Predicate { $0.likes > 10 }, "likes > 10", titles: [empty, faults, caffe]),
            Row("$0.likes == limit", #Predicate { $0.likes == limit }, "likes == %d", limit, titles: [batch]),
            Row("$0.likes != 10", #Predicate { $0.likes != 10 }, "likes != 10", titles: [empty, faults, prefetching, untitled, caffe]),
            Row("$0.likes < 3", #Predicate { $0.likes < 3 }, "likes < 3", titles: [untitled]),
            Row("$0.likes <= 3", #Predicate { $0.likes <= 3 }, "likes <= 3", titles: [prefetching, untitled]),
            Row("$0.likes >= 12", #Predicate { $0.likes >= 12 }, "likes >= 12", titles: [faults, caffe]),
            Row("10 < $0.likes", #Predicate { 10 < $0.likes }, "likes > 10", titles: [empty, faults, caffe]),
            Row("$0.likes > limit + 1", #Predicate { $0.likes > limit + 1 }, "likes > 11", titles: [faults, caffe]),
            Row("$0.title == \"Prefetching\"", #Predicate { $0.title == "Prefetching" }, "title == 'Prefetching'", titles: [prefetching]),
            Row("$0.rating == 4.5", #Predicate { $0.rating == 4.5 }, "rating == 4.5", titles: [faults]),
            // Bool attributes.
            Row("$0.published", #Predicate { $0.published }, "published == YES", titles: [batch, faults, caffe]),
            Row("!$0.published", #Predicate { !$0.published }, "NOT published == YES", titles: [empty, prefetching, untitled]),
            Row("$0.published == false", #Predicate { $0.published == false }, "published == NO", titles: [empty, prefetching, untitled]),
            // Optionals: nil, ?? and flatMap.
            Row("$0.rating == nil", #Predicate { $0.rating == nil }, "rating == nil", titles: [prefetching, untitled]),
            Row("$0.rating != nil", #Predicate { $0.rating != nil }, "rating != nil", titles: [empty, batch, faults, caffe]),
            Row("($0.rating ?? 0) < 3", #Predicate { ($0.rating ?? 0) < 3 }, "rating < 3.0 OR rating == nil",
                titles: [empty, prefetching, untitled, caffe]),
            Row("($0.rating ?? 0) > 4", #Predicate { ($0.rating ?? 0) > 4 }, "rating > 4.0", titles: [batch, faults]),
            Row("($0.rating ?? 0) != 0", #Predicate { ($0.rating ?? 0) != 0 }, "rating != 0.0 AND rating != nil",
                titles: [empty, batch, faults, caffe]),
            Row("$0.rating.flatMap { $0 < 3 } == true", #Predicate { $0.rating.flatMap { $0 < 3 } == true }, "rating < 3.0",
                titles: [empty, caffe]),
            // &&, || and to-one key paths (optional chaining).
            Row("$0.likes > 10 && $0.author?.name == name", #Predicate { $0.likes > 10 && $0.author?.name == name },
                "likes > 10 AND author.name == %@", name, titles: [faults]),
            Row("$0.likes > 20 || $0.author?.name == \"Émile\"", #Predicate { $0.likes > 20 || $0.author?.name == "Émile" },
                "likes > 20 OR author.name == 'Émile'", titles: [empty, prefetching, caffe]),
            Row("$0.author == nil", #Predicate { $0.author == nil }, "author == nil", titles: [untitled]),
            Row("$0.author != nil", #Predicate { $0.author != nil }, "author != nil", titles: [empty, batch, faults, prefetching, caffe]),
            Row("$0.author?.age == nil", #Predicate { $0.author?.age == nil }, "author.age == nil", titles: [empty, prefetching, untitled]),
            Row("($0.author?.age ?? 0) > 40", #Predicate { ($0.author?.age ?? 0) > 40 }, "author.age > 40", titles: [caffe]),
            Row("$0.author?.joined == joined", #Predicate { $0.author?.joined == joined }, "author.joined == %@", joined,
                titles: [batch, faults]),
            Row("$0.author?.name.starts(with: \"É\") == true", #Predicate { $0.author?.name.starts(with: "É") == true },
                "author.name BEGINSWITH 'É'", titles: [empty, prefetching]),
            Row("$0.author?.name.contains(\"d\") ?? false", #Predicate { $0.author?.name.contains("d") ?? false },
                "author.name CONTAINS 'd'", titles: [batch, faults]),
            Row("$0.author?.name.contains(\"d\") == false", #Predicate { $0.author?.name.contains("d") == false },
                "author != nil AND NOT author.name CONTAINS 'd'", titles: [empty, prefetching, caffe]),
            Row("$0.author?.name.contains(\"d\") ?? true", #Predicate { $0.author?.name.contains("d") ?? true },
                "NOT (author != nil AND NOT author.name CONTAINS 'd')", titles: [batch, faults, untitled]),
            // Strings.
            Row("$0.title.contains(\"a\")", #Predicate { $0.title.contains("a") }, "title CONTAINS 'a'", titles: [batch, faults, caffe]),
            Row("$0.title.starts(with: \"Pre\")", #Predicate { $0.title.starts(with: "Pre") }, "title BEGINSWITH 'Pre'",
                titles: [prefetching]),
            Row("$0.title.localizedStandardContains(\"CAFE\")", #Predicate { $0.title.localizedStandardContains("CAFE") },
                "title CONTAINS[cd] 'CAFE'", titles: [caffe]),
            Row("$0.title.caseInsensitiveCompare(\"untitled\") == same",
                #Predicate { $0.title.caseInsensitiveCompare("untitled") == same }, "title ==[c] 'untitled'", titles: [untitled]),
            Row("$0.title.caseInsensitiveCompare(\"c\") == ascending", #Predicate { $0.title.caseInsensitiveCompare("c") == ascending },
                "title <[c] 'c'", titles: [empty, batch]),
            Row("$0.title.isEmpty", #Predicate { $0.title.isEmpty }, "title == ''", titles: [empty]),
            Row("$0.body?.isEmpty == true", #Predicate { $0.body?.isEmpty == true }, "body == ''", titles: [untitled]),
            // To-many relationships.
            Row("$0.comments.isEmpty", #Predicate { $0.comments.isEmpty }, "comments.@count == 0", titles: [empty, caffe]),
            Row("!$0.comments.isEmpty", #Predicate { !$0.comments.isEmpty }, "NOT comments.@count == 0",
                titles: [batch, faults, prefetching, untitled]),
            Row("$0.comments.count >= 2", #Predicate { $0.comments.count >= 2 }, "comments.@count >= 2", titles: [faults, untitled]),
            Row("$0.comments.contains { $0.likes > 4 }", #Predicate { $0.comments.contains { $0.likes > 4 } },
                "ANY comments.likes > 4", titles: [faults, untitled]),
            Row("$0.comments.allSatisfy { $0.likes > 1 }", #Predicate { $0.comments.allSatisfy { $0.likes > 1 } },
                "ALL comments.likes > 1", titles: [empty, batch, untitled, caffe]),
            Row("$0.comments.contains { $0.likes > 1 && $0.likes < 6 }", #Predicate { $0.comments.contains { $0.likes > 1 && $0.likes < 6 } },
                "SUBQUERY(comments, $x, $x.likes > 1 AND $x.likes < 6).@count > 0", titles: [batch, faults]),
            Row("$0.comments.allSatisfy { $0.likes == 0 || $0.likes > 6 }",
                #Predicate { $0.comments.allSatisfy { $0.likes == 0 || $0.likes > 6 } },
                "SUBQUERY(comments, $x, NOT ($x.likes == 0 OR $x.likes > 6)).@count == 0",
                titles: [empty, prefetching, untitled, caffe]),
            Row("$0.comments.filter { $0.likes > 1 }.count == 1", #Predicate { $0.comments.filter { $0.likes > 1 }.count == 1 },
                "SUBQUERY(comments, $x, $x.likes > 1).@count == 1", titles: [batch, faults]),
            Row("$0.tags.contains { $0.name == tag }", #Predicate { $0.tags.contains { $0.name == tag } }, "ANY tags.name == %@", tag,
                titles: [batch, faults, untitled]),
            Row("!$0.tags.contains { $0.name == \"coredata\" }", #Predicate { !$0.tags.contains { $0.name == "coredata" } },
                "NOT ANY tags.name == 'coredata'", titles: [empty, batch, untitled, caffe]),
            Row("$0.tags.contains { $0.posts.contains { $0.likes > 11 } }", #Predicate { $0.tags.contains { $0.posts.contains { $0.likes > 11 } } },
                "SUBQUERY(tags, $x, ANY $x.posts.likes > 11).@count > 0", titles: [batch, faults, prefetching, untitled]),
            Row("$0.author?.posts.contains { $0.likes > 20 } == true", #Predicate { $0.author?.posts.contains { $0.likes > 20 } == true },
                "ANY author.posts.likes > 20", titles: [caffe]),
            // Lists and ranges of values.
            Row("titles.contains($0.title)", #Predicate { titles.contains($0.title) }, "title IN %@", titles,
                titles: [prefetching, untitled]),
            Row("bodies.contains($0.body)", #Predicate { bodies.contains($0.body) }, "body IN {'x'} OR body == nil",
                titles: [empty, batch, prefetching]),
            Row("(10...12).contains($0.likes)", #Predicate { (10...12).contains($0.likes) }, "likes BETWEEN {10, 12}",
                titles: [empty, batch, faults]),
            Row("(10..<12).contains($0.likes)", #Predicate { (10..<12).contains($0.likes) }, "likes >= 10 AND likes < 12",
                titles: [empty, batch]),
            // A conditional between conditions, constants.
            Row("$0.published ? $0.likes > 11 : $0.likes < 4", #Predicate { $0.published ? $0.likes > 11 : $0.likes < 4 },
                "(published == YES AND likes > 11) OR (NOT published == YES AND likes < 4)",
                titles: [faults, prefetching, untitled, caffe]),
            Row("true", #Predicate { _ in true }, "TRUEPREDICATE", titles: all),
            Row("flag && $0.likes > 10", #Predicate { flag && $0.likes > 10 }, "FALSEPREDICATE AND likes > 10", titles: []),
        ]
    }
}
