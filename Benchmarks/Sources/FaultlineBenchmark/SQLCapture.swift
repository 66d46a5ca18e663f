import Foundation
import ObjectGraph

/// Records every statement the engine executes, with its connection and
/// typed bound values, into the capture file the C limit replays
/// (format in Sources/CLimit/climit.c). Capturing from the engine's own
/// statement hook keeps the limit's SQL equal to the engine's as the
/// engine changes.
final class SQLCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String: Int] = [:]
    private var connections: [ObjectIdentifier: Int] = [:]
    private var lines: [String] = []
    private var executions: [String] = []
    var isOn = false
    /// What could not be captured (the limit then cannot be measured).
    private(set) var unsupported: String?

    func record(_ executed: ExecutedStatement) {
        lock.lock()
        defer { lock.unlock() }
        guard isOn else { return }
        let connection = connections[executed.connectionID] ?? {
            let number = connections.count
            connections[executed.connectionID] = number
            return number
        }()
        let statement = statements[executed.sql] ?? {
            let number = statements.count
            statements[executed.sql] = number
            lines.append("S \(executed.sql.utf8.count) \(executed.sql)")
            return number
        }()
        var line = "E \(connection) \(statement) \(executed.arguments.count)"
        for argument in executed.arguments {
            switch argument {
            case .null: line += " n"
            case .integer(let value): line += " i\(value)"
            case .real(let value): line += " r\(value)"
            case .text(let value): line += " t\(value.utf8.count):\(value)"
            case .blob: unsupported = unsupported ?? "a blob bound in \(executed.sql)"
            }
        }
        executions.append(line)
    }

    /// Statements captured so far.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return executions.count
    }

    func write(to path: String) throws {
        if let unsupported { throw BenchmarkError("cannot capture \(unsupported)") }
        lock.lock()
        let text = (["C \(max(1, connections.count))"] + lines + executions).joined(separator: "\n") + "\n"
        lock.unlock()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
