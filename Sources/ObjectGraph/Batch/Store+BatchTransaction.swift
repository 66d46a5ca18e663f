import Foundation
import Probes

extension Store {
    /// Runs several batch requests (``execute(_:author:file:line:)``,
    /// ``relate(_:through:of:file:line:)``) made by `body` on this thread in
    /// one write transaction: all or nothing, one commit. Building a data set
    /// this way is one transaction. Change observers hear of the requests
    /// after the commit.
    public func performBatchTransaction<T>(file: String = #fileID, line: Int = #line, _ body: () throws -> T) throws -> T {
        let thread = ProbeClock.threadID()
        let result: T
        do {
            result = try pool.write(purpose: "batch", callSite: CallSite(file: file, line: line)) { connection in
                batchSession.withLock { $0 = BatchSession(thread: thread, connection: connection) }
                defer { batchSession.withLock { $0 = nil } }
                return try body()
            }
        } catch {
            pendingBatchNotifications.withLock { $0.removeAll() }
            throw error
        }
        flushBatchNotifications()
        return result
    }

    /// Runs `body` in the batch transaction this thread has open, or in a
    /// write transaction of its own.
    func inBatchTransaction<T>(_ site: CallSite, _ body: (Connection) throws -> T) throws -> T {
        let thread = ProbeClock.threadID()
        if let session = batchSession.withLock({ $0 }), session.thread == thread {
            pool.writerOrigin.callSite = site
            return try body(session.connection)
        }
        return try pool.write(purpose: "batch", callSite: site, body)
    }

    /// Notifies observers now, or after the batch transaction this thread
    /// has open commits.
    func notifyAfterBatch(_ changes: ChangeSet) {
        let thread = ProbeClock.threadID()
        if let session = batchSession.withLock({ $0 }), session.thread == thread {
            pendingBatchNotifications.withLock { $0.append(changes) }
        } else {
            notifyObservers(changes)
        }
    }

    func flushBatchNotifications() {
        let pending = pendingBatchNotifications.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for changes in pending { notifyObservers(changes) }
    }
}

/// The write transaction a thread holds for ``Store/performBatchTransaction(file:line:_:)``.
struct BatchSession: @unchecked Sendable {
    let thread: Int32
    let connection: Connection
}
