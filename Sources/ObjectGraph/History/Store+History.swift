import Foundation
import Probes

extension Store {
    /// The token of the newest recorded transaction (nil when there is
    /// none). Its statement runs at `file`:`line`.
    public func currentHistoryToken(file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> HistoryToken? {
        guard configuration.persistentHistoryTracking else { throw .historyDisabled }
        return try storeRead("history", at: CallSite(file: file, line: line)) { connection, _ in
            var number: Int64?
            try connection.query(HistorySQL.selectNewestTransaction) { row in number = row.optionalInt64(0) }
            return number.map { HistoryToken(storeIdentifier: storeIdentifier, transactionNumber: $0) }
        }
    }

    /// The transactions recorded after `token` (all when nil), oldest first;
    /// only those of `author`, or all but those of `excludingAuthor`. Its
    /// statements run at `file`:`line`.
    public func fetchHistory(
        after token: HistoryToken?, author: String? = nil, excludingAuthor: String? = nil, file: String = #fileID, line: Int = #line
    ) throws(ObjectGraphError) -> [HistoryTransaction] {
        guard configuration.persistentHistoryTracking else { throw .historyDisabled }
        if let token { try check(token) }
        let sql = HistorySQL.selectTransactions(byAuthor: author != nil, excludingAuthor: excludingAuthor != nil)
        var arguments: [DatabaseValue] = [.integer(token?.transactionNumber ?? 0)]
        if let author { arguments.append(.text(author)) }
        if let excludingAuthor { arguments.append(.text(excludingAuthor)) }
        let model = self.model
        let identifier = storeIdentifier
        return try storeRead("history", at: CallSite(file: file, line: line)) { connection, _ in
            var transactions: [(Int64, String?, String, Double)] = []
            try connection.query(sql, arguments) { row in
                transactions.append((row.int64(0), row.isNull(1) ? nil : row.string(1), row.string(2), row.double(3)))
            }
            var result: [HistoryTransaction] = []
            for (number, author, context, timestamp) in transactions {
                var changes = ChangeSet(contextName: context, author: author)
                try connection.query(HistorySQL.selectChanges, [.integer(number)]) { row in
                    guard let entity = model.entity(named: row.string(0)) else { return }
                    let id = ObjectID(entity: entity, primaryKey: row.int64(1))
                    switch Int(row.int64(2)) {
                    case HistoryRecorder.insert: changes.inserted.insert(id)
                    case HistoryRecorder.update: changes.updated.insert(id)
                    default: changes.deleted.insert(id)
                    }
                }
                let token = HistoryToken(storeIdentifier: identifier, transactionNumber: number)
                changes.historyToken = token
                result.append(HistoryTransaction(
                    token: token, author: author, contextName: context, timestamp: Date(timeIntervalSince1970: timestamp),
                    changes: changes))
            }
            return result
        }
    }

    /// Deletes the transactions up to and including `token`. Returns how
    /// many went. Its statements run at `file`:`line`.
    @discardableResult
    public func deleteHistory(through token: HistoryToken, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> Int {
        guard configuration.persistentHistoryTracking else { throw .historyDisabled }
        try check(token)
        do {
            return try pool.write(purpose: "history", callSite: CallSite(file: file, line: line)) { connection in
                try connection.run(HistorySQL.deleteChanges, [.integer(token.transactionNumber)])
                return try connection.run(HistorySQL.deleteTransactions, [.integer(token.transactionNumber)])
            }
        } catch let error as SQLiteError {
            throw .saveFailed(error)
        } catch {
            throw .store(path: path, reason: "\(error)", sqlite: nil)
        }
    }

    private func check(_ token: HistoryToken) throws(ObjectGraphError) {
        guard token.storeIdentifier == storeIdentifier else {
            throw .historyTokenMismatch(expected: storeIdentifier, got: token.storeIdentifier)
        }
    }

    func storeRead<T>(_ purpose: String, at site: CallSite, _ body: (Connection, UInt64) throws -> T) throws(ObjectGraphError) -> T {
        do {
            return try pool.read(purpose: purpose, callSite: site, body)
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as SQLiteError {
            throw .store(path: path, reason: Store.explain(error), sqlite: error)
        } catch {
            throw .store(path: path, reason: "\(error)", sqlite: nil)
        }
    }
}

extension ObjectContext {
    /// Merges recorded transactions (``Store/fetchHistory(after:author:excludingAuthor:file:line:)``)
    /// into this context, oldest first.
    public func merge(_ transactions: [HistoryTransaction]) {
        for transaction in transactions { merge(transaction.changes) }
    }
}
