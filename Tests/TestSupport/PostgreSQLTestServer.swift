import Foundation

/// A real PostgreSQL server (Debian's `postgresql`, installed by
/// scripts/install-system-packages.sh --test) for the history store's
/// tests: its own cluster in a temporary directory, listening on a free
/// loopback port (and a socket in that directory), trusting local
/// connections, without fsync (nothing it holds outlives the tests).
///
/// ``shared()`` starts one per test process, the first time a test asks;
/// it is stopped by its PID (SIGINT, PostgreSQL's fast shutdown) when the
/// process exits, and its directory removed. Each test takes a database of
/// its own (``createDatabase()``). Missing binaries are an error with the
/// reason: a test that needs the server fails, it is never skipped.
public final class PostgreSQLTestServer: @unchecked Sendable {
    /// Where Debian's package puts the server's programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"
    /// The role the cluster is made with.
    public static let user = "faultline"

    public let directory: URL
    public let port: Int
    private let process: Process
    private let lock = NSLock()
    private var stopped = false
    private var databases = 0

    /// The server of this test process, started on first use.
    public static func shared() throws -> PostgreSQLTestServer {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if let sharedServer { return try sharedServer.get() }
        let started = Result { try PostgreSQLTestServer() }
        sharedServer = started
        if case .success = started { atexit { PostgreSQLTestServer.stopShared() } }
        return try started.get()
    }

    nonisolated(unsafe) private static var sharedServer: Result<PostgreSQLTestServer, any Error>?
    private static let sharedLock = NSLock()

    private static func stopShared() {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if case .success(let server) = sharedServer { server.stop() }
    }

    /// A URL of the server for `database` (no password: the cluster trusts loopback).
    public func url(database: String = "postgres") -> String { "postgresql://\(Self.user)@127.0.0.1:\(port)/\(database)" }

    /// A new, empty database of this server; its URL.
    public func createDatabase() throws -> String {
        let name = lock.withLock {
            databases += 1
            return "history_\(getpid())_\(databases)"
        }
        try run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", Self.user, name])
        return url(database: name)
    }

    /// Runs `psql -c sql` on `database` as the cluster's superuser.
    public func psql(_ sql: String, database: String = "postgres") throws {
        try run("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", Self.user, "-d", database, "-c", sql])
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        let result = try CommandResult.run(Self.binaries + "/" + program, arguments)
        guard result.status == 0 else { throw ServerError("\(program) \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Makes a cluster and starts the server; fails with the reason (and
    /// the server's log) when it cannot.
    public init() throws {
        for program in ["initdb", "postgres", "pg_isready", "createdb", "psql"] {
            guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/" + program) else {
                throw ServerError(
                    "\(Self.binaries)/\(program) is not installed: scripts/install-system-packages.sh --test installs postgresql (make test runs it)")
            }
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-postgres-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // PostgreSQL refuses to run as root: as root, its programs run as
        // Debian's postgres user, which owns the directory.
        var prefix: [String] = []
        if getuid() == 0 {
            guard let account = getpwnam("postgres") else {
                throw ServerError("running as root, and there is no postgres user to run PostgreSQL as (Debian's postgresql package makes it)")
            }
            guard chown(directory.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw ServerError("chown \(directory.path) to postgres: \(String(cString: strerror(errno)))")
            }
            prefix = ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]
        }
        let data = directory.appendingPathComponent("data").path
        let initdbCommand = prefix + [
            Self.binaries + "/initdb", "-D", data, "-U", Self.user, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8",
        ]
        let initdb = try CommandResult.run(initdbCommand[0], Array(initdbCommand.dropFirst()), in: directory)
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw ServerError("initdb failed: \(initdb.stdout.suffix(1_000)) \(initdb.stderr.suffix(1_000))")
        }
        var lastLog = ""
        for attempt in 1...3 {
            let port = try Self.freePort()
            let log = directory.appendingPathComponent("postgres-\(attempt).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            let server = [
                Self.binaries + "/postgres", "-D", data, "-k", directory.path, "-h", "127.0.0.1", "-p", String(port),
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=100",
            ]
            // setpriv executes the server in its own process: the PID is the server's.
            let command = prefix + server
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            process.currentDirectoryURL = directory
            process.standardInput = FileHandle.nullDevice
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning {
                let ready = try CommandResult.run(Self.binaries + "/pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(port), "-U", Self.user])
                if ready.status == 0 {
                    self.port = port
                    self.process = process
                    return
                }
                usleep(100_000)
            }
            lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            Self.stop(process)
        }
        try? FileManager.default.removeItem(at: directory)
        throw ServerError("PostgreSQL did not accept connections on loopback within 30 s: \(lastLog.suffix(2_000))")
    }

    deinit { stop() }

    /// Stops the server (by its PID) and removes its directory.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        Self.stop(process)
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGINT (fast shutdown: clients disconnected, a clean stop), then
    /// SIGKILL after 10 s.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// A port nothing listens on now: the kernel's choice for port 0.
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError("socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ServerError("bind: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
