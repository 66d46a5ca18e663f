import Foundation

/// Where a history store is, from a `--history` argument: a file path.
///
/// In this build the file holds the runs as JSON (``open()`` gives a store
/// that reads and writes it); a SQLite file and a `postgres://` URL take
/// its place.
public struct HistoryLocation: Sendable, CustomStringConvertible {
    public let argument: String
    public let option: String

    public init(_ argument: String, option: String) throws(HistoryError) {
        guard !argument.isEmpty else { throw HistoryError("\(option): an empty path") }
        guard !argument.contains("://") else { throw HistoryError("\(option) \(argument): a file path, not a URL") }
        self.argument = argument
        self.option = option
    }

    public var description: String { argument }

    public func open() throws(HistoryError) -> any HistoryStore {
        let store = JSONFileHistoryStore(path: argument)
        _ = try store.runs(HistoryQuery())
        return store
    }
}

/// Runs kept as a JSON array in one file (``HistoryLocation``).
private struct JSONFileHistoryStore: HistoryStore {
    let path: String

    func add(_ runs: [HistoryRun]) throws(HistoryError) -> Int {
        let memory = InMemoryHistoryStore(try all())
        let added = memory.add(runs)
        do {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            try encoder.encode(memory.runs(HistoryQuery())).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw HistoryError("\(path): cannot write: \(error.localizedDescription)")
        }
        return added
    }

    func runs(_ query: HistoryQuery) throws(HistoryError) -> [HistoryRun] {
        InMemoryHistoryStore(try all()).runs(query)
    }

    private func all() throws(HistoryError) -> [HistoryRun] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw HistoryError("\(path): cannot read: \(error.localizedDescription)")
        }
        if data.isEmpty { return [] }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode([HistoryRun].self, from: data)
        } catch {
            throw HistoryError("\(path): not a history store")
        }
    }
}
