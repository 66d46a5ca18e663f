import Foundation
import ObjectGraph
import Scenarios

/// An item of a media library: the abstract parent of ``Book`` and
/// ``Podcast`` (Core Data's entity inheritance).
public class LibraryItem: ManagedObject, EntityNamed {
    public class var entityName: String { "LibraryItem" }
    /// No fault hook: the class is not `open`, and none of its subclasses
    /// here overrides one.
    override public class var hasFaultHooks: Bool { false }
    @inlinable public final var title: String { attribute("title", at: 0, in: &_title) }
    @usableFromInline @exclusivity(unchecked) final var _title = AttributeField<String>()
}

public class Book: LibraryItem {
    override public class var entityName: String { "Book" }
    @inlinable public final var pages: Int32 { attribute("pages", at: 3, in: &_pages) }
    @usableFromInline @exclusivity(unchecked) final var _pages = AttributeField<Int32>()
}

public final class Audiobook: Book {
    override public class var entityName: String { "Audiobook" }
    @inlinable public final var minutes: Double { attribute("minutes", at: 5, in: &_minutes) }
    @usableFromInline @exclusivity(unchecked) final var _minutes = AttributeField<Double>()
}

public final class Podcast: LibraryItem {
    override public class var entityName: String { "Podcast" }
    @inlinable public final var episodes: Int32 { attribute("episodes", at: 3, in: &_episodes) }
    @usableFromInline @exclusivity(unchecked) final var _episodes = AttributeField<Int32>()
}

/// A media library whose entities inherit from an abstract `LibraryItem`:
/// books, audiobooks (a book with a running time: inheritance two deep)
/// and podcasts, all rows of one table told apart by its entity column.
enum LibraryDataSet {
    static let bookBase = 3_000
    static let audiobookBase = 1_000
    static let podcastBase = 1_000

    static let model: Model = try! Model([
        Entity("LibraryItem", LibraryItem.self, abstract: true, properties: [
            .attribute("title", .string),
            .attribute("added", .date),
            .attribute("rating", .int16, default: 0),
        ]),
        Entity("Book", Book.self, parent: "LibraryItem", properties: [
            .attribute("pages", .int32, default: 0),
            .attribute("publisher", .string, optional: true),
        ]),
        Entity("Audiobook", Audiobook.self, parent: "Book", properties: [
            .attribute("minutes", .double, default: 0),
            .attribute("narrator", .string, optional: true),
        ]),
        Entity("Podcast", Podcast.self, parent: "LibraryItem", properties: [
            .attribute("episodes", .int32, default: 0),
            .attribute("feed", .string, optional: true),
        ]),
    ])

    /// 3,000 × scale books, 1,000 × scale audiobooks and 1,000 × scale
    /// podcasts, added a day apart, with drawn ratings and sizes.
    static let spec = DataSetSpec(entities: [
        .init("Book", base: bookBase, attributes: [
            .init("title", .text("Book {n}")),
            .init("added", .dates(start: Date(timeIntervalSince1970: 1_262_304_000), step: 86_400)),
            .init("rating", .uniformInt(1...5)),
            .init("pages", .uniformInt(80...900)),
            .init("publisher", .text("Publisher {n}")),
        ]),
        .init("Audiobook", base: audiobookBase, attributes: [
            .init("title", .text("Audiobook {n}")),
            .init("added", .dates(start: Date(timeIntervalSince1970: 1_262_304_000), step: 86_400)),
            .init("rating", .uniformInt(1...5)),
            .init("pages", .uniformInt(80...900)),
            .init("minutes", .uniformInt(60...1_800)),
            .init("narrator", .text("Narrator {n}")),
        ]),
        .init("Podcast", base: podcastBase, attributes: [
            .init("title", .text("Podcast {n}")),
            .init("added", .dates(start: Date(timeIntervalSince1970: 1_262_304_000), step: 86_400)),
            .init("rating", .uniformInt(1...5)),
            .init("episodes", .uniformInt(1...400)),
            .init("feed", .text("https://example.com/feed/{n}")),
        ]),
    ])
}
