import Foundation

/// A position in a store's persistent history: the transactions after it
/// are the ones not seen yet. Opaque to applications; serialize it with
/// `Codable` to resume later.
public struct HistoryToken: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The store it belongs to (`faultline_metadata.store_identifier`).
    public let storeIdentifier: String
    /// The transaction it points at.
    public let transactionNumber: Int64

    /// Orders by transaction number, the order the transactions were
    /// recorded in. The store identifiers are not compared: order only tokens
    /// of one store.
    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool { lhs.transactionNumber < rhs.transactionNumber }
    /// `storeIdentifier#transactionNumber`.
    public var description: String { "\(storeIdentifier)#\(transactionNumber)" }
}

/// One recorded save or batch request.
public struct HistoryTransaction: Sendable, Equatable {
    /// The transaction's position: pass it to a later fetch to get only the
    /// transactions after this one.
    public let token: HistoryToken
    /// The saving context's `transactionAuthor`, or the batch request's author.
    public let author: String?
    /// The saving context's name (`batch update`, … for batch requests).
    public let contextName: String
    /// When the transaction was recorded.
    public let timestamp: Date
    /// The objects it inserted, updated and deleted.
    public let changes: ChangeSet
}

/// Records persistent history in the tables ``HistorySQL`` creates when a
/// store opens with history tracking on; names the kinds of change a
/// change row holds.
enum HistoryRecorder {
    static let insert = 1
    static let update = 2
    static let delete = 3

    /// Records a transaction inside the current write transaction. Returns
    /// its number.
    static func record(_ changes: ChangeSet, author: String?, context: String, on connection: Connection) throws -> Int64 {
        var number: Int64 = 0
        try connection.query(
            HistorySQL.insertTransaction, [author.map { .text($0) } ?? .null, .text(context), .real(Date().timeIntervalSince1970)]
        ) { row in number = row.int64(0) }
        for (kind, ids) in [(insert, changes.inserted), (update, changes.updated), (delete, changes.deleted)] {
            for id in ids.sorted() {
                try connection.run(
                    HistorySQL.insertChange, [.integer(number), .text(id.entityName), .integer(id.primaryKey), .integer(Int64(kind))])
            }
        }
        return number
    }
}
