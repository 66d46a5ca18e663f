import Foundation

/// Where the history is kept, as `--history` gives it:
///
/// - a file path (`Reports/history.sqlite`), or `sqlite:PATH`, `file:PATH`,
///   `file:///PATH`: a SQLite file, made on first use;
/// - `postgres://…` or `postgresql://…`: a PostgreSQL database, as libpq
///   reads the URL (user, password, host, port, database, parameters such
///   as `sslmode`); a password can instead come from `PGPASSWORD` or
///   `~/.pgpass`.
///
/// Every message names the option and the store, never the password.
public struct HistoryLocation: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Kind: Equatable, Sendable {
        case sqlite(path: String)
        case postgreSQL(PostgreSQLAddress)
    }

    /// How ``open(_:)`` treats a store that does not exist yet.
    public enum Opening: Sendable {
        /// Make it (the SQLite file, the tables): for adding.
        case creatingIfMissing
        /// Only an existing history: for reading, where a missing one is a
        /// mistyped location rather than an empty history.
        case existing
    }

    public let kind: Kind
    /// The option that gave it (`--history`), in every message.
    public let option: String

    /// Reads `argument`; bad input is an error naming `option`.
    public init(_ argument: String, option: String = "--history") throws(HistoryError) {
        self.option = option
        guard !argument.isEmpty else {
            throw HistoryError("\(option): an empty location: give a SQLite file path or a postgresql:// URL")
        }
        let lowered = argument.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            // libpq reads the scheme in lower case only.
            let scheme = argument.range(of: "://")!
            let url = argument[..<scheme.lowerBound].lowercased() + argument[scheme.lowerBound...]
            let address = PostgreSQLAddress(url: url)
            if let problem = PostgreSQLConnection.problem(in: url) {
                throw HistoryError("\(option) \(address): not a PostgreSQL URL: \(address.scrub(problem))")
            }
            kind = .postgreSQL(address)
            return
        }
        for scheme in ["sqlite:", "file:"] where lowered.hasPrefix(scheme) {
            let rest = String(argument.dropFirst(scheme.count))
            kind = .sqlite(path: try Self.path(rest, of: argument, option: option))
            return
        }
        if let scheme = argument.range(of: "://"), argument[..<scheme.lowerBound].allSatisfy({ $0.isLetter || $0 == "+" }) {
            throw HistoryError(
                "\(option) \(argument[..<scheme.lowerBound])://…: not a kind of history store (a SQLite file path, sqlite:PATH, or postgresql://…)")
        }
        kind = .sqlite(path: argument)
    }

    /// The path of `sqlite:PATH` or `file:PATH`, or of `file:///PATH`.
    private static func path(_ rest: String, of argument: String, option: String) throws(HistoryError) -> String {
        guard rest.hasPrefix("//") else {
            guard !rest.isEmpty else { throw HistoryError("\(option) \(argument): no file path after the colon") }
            return rest
        }
        guard let url = URL(string: "file:" + rest), url.host == nil || url.host == "" || url.host == "localhost", !url.path.isEmpty,
            url.path != "/"
        else {
            throw HistoryError("\(option) \(argument): not a local file URL (sqlite:///absolute/path or sqlite:relative/path)")
        }
        return url.path
    }

    /// The store as messages name it: the file path, or the URL without its password.
    public var description: String {
        switch kind {
        case .sqlite(let path): path
        case .postgreSQL(let address): address.description
        }
    }

    public var debugDescription: String { description }

    /// A command-line argument with the password of any PostgreSQL URL in
    /// it shown as `***` (`--history=postgresql://u:***@h/db` too): for
    /// the command line a report records.
    public static func redactingPassword(_ argument: String) -> String {
        var prefix = ""
        var value = Substring(argument)
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            prefix = String(argument[...equals])
            value = argument[argument.index(after: equals)...]
        }
        let lowered = value.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else { return argument }
        return prefix + PostgreSQLAddress(url: String(value)).description
    }

    /// The store, opened (``Opening``; by default made when missing). A
    /// store that cannot be opened is an error naming the option and the
    /// store, with the reason.
    public func open(_ opening: Opening = .creatingIfMissing) throws(HistoryError) -> any HistoryStore {
        let name = "\(option) \(description)"
        switch kind {
        case .sqlite(let path): return try SQLiteHistoryStore(path: path, creating: opening == .creatingIfMissing, name: name)
        case .postgreSQL(let address): return try PostgreSQLHistoryStore(address: address, creating: opening == .creatingIfMissing, name: name)
        }
    }
}
