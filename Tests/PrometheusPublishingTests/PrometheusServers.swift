import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real Pushgateway and a real Prometheus (Debian's `prometheus-pushgateway`
/// and `prometheus`, installed by scripts/install-system-packages.sh --test)
/// on free loopback ports, Prometheus scraping the Pushgateway every second
/// into its own temporary storage. ``stop()`` ends exactly the two processes
/// started here, by their PIDs, and removes the temporary directory.
final class PrometheusServers {
    static let prometheusBinary = "/usr/bin/prometheus"
    static let pushgatewayBinary = "/usr/bin/prometheus-pushgateway"

    let directory: URL
    private(set) var pushgateway: (process: Process, port: Int)!
    private(set) var prometheus: (process: Process, port: Int)!

    /// Each server answers under a path of this harness's own: a server of
    /// another test that took the same port in between is never taken for
    /// this one's (its readiness check would fail), and publish and trend
    /// reach servers behind a path prefix.
    let prefix = "/faultline-test-" + UUID().uuidString.prefix(8).lowercased()

    var pushgatewayURL: String { "http://127.0.0.1:\(pushgateway.port)\(prefix)" }
    var prometheusURL: String { "http://127.0.0.1:\(prometheus.port)\(prefix)" }

    /// Starts both and waits until both say they are ready. A missing
    /// program fails the test with the reason; nothing is skipped.
    init() throws {
        for binary in [Self.prometheusBinary, Self.pushgatewayBinary] {
            try #require(
                FileManager.default.isExecutableFile(atPath: binary),
                "\(binary) is not installed: scripts/install-system-packages.sh --test installs it (make test runs it)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-prometheus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let prefix = prefix
            let directory = directory
            pushgateway = try Self.start(name: "pushgateway", in: directory, prefix: prefix) { port in
                // Its own persistence file: Debian's default is one file for every Pushgateway of the machine.
                (Self.pushgatewayBinary, [
                    "--web.listen-address=127.0.0.1:\(port)", "--web.route-prefix=\(prefix)",
                    "--persistence.file=\(directory.appendingPathComponent("pushgateway.data").path)",
                ])
            }
            let gatewayPort = pushgateway.port
            prometheus = try Self.start(name: "prometheus", in: directory, prefix: prefix) { port in
                let configuration = """
                    global:
                      scrape_interval: 1s
                      evaluation_interval: 1s
                    scrape_configs:
                      - job_name: pushgateway
                        honor_labels: true
                        metrics_path: \(prefix)/metrics
                        static_configs:
                          - targets: ['127.0.0.1:\(gatewayPort)']

                    """
                let file = directory.appendingPathComponent("prometheus.yml")
                try configuration.write(to: file, atomically: true, encoding: .utf8)
                return (Self.prometheusBinary, [
                    "--config.file=\(file.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
                    "--web.listen-address=127.0.0.1:\(port)", "--web.external-url=http://127.0.0.1:\(port)\(prefix)/",
                ])
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Starts a server on a free port and waits (at most 30 s) for `/-/ready`;
    /// a port taken in between is tried again with another.
    private static func start(
        name: String, in directory: URL, prefix: String, command: (Int) throws -> (String, [String])
    ) throws -> (Process, Int) {
        var lastLog = ""
        for attempt in 1...3 {
            let port = try freePort()
            let (program, arguments) = try command(port)
            let log = directory.appendingPathComponent("\(name)-\(attempt).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardInput = FileHandle.nullDevice
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning {
                if let (status, _) = try? HTTP.get("http://127.0.0.1:\(port)\(prefix)/-/ready"), status == 200 { return (process, port) }
                usleep(100_000)
            }
            lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            stop(process)
        }
        throw ServerError(description: "\(name) did not become ready on loopback within 30 s: \(lastLog.suffix(2_000))")
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
    }

    /// A port nothing listens on now: the kernel's choice for port 0.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError(description: "socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ServerError(description: "bind: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Ends a process this harness started: SIGTERM to its PID, then SIGKILL
    /// after 10 s.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    private var stopped = false

    /// Stops both servers (Prometheus first) and removes their directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if let prometheus { Self.stop(prometheus.process) }
        if let pushgateway { Self.stop(pushgateway.process) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// An instant query through Prometheus' HTTP API: each series' labels
    /// and value, as the API's JSON has them.
    func query(_ promQL: String) throws -> [(labels: [String: String], value: String)] {
        var components = URLComponents(string: prometheusURL + "/api/v1/query")!
        components.queryItems = [URLQueryItem(name: "query", value: promQL)]
        // A + in a query string is a space to Go: encode it.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        let (status, body) = try HTTP.get(components.url!.absoluteString)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        guard status == 200, object?["status"] as? String == "success", let data = object?["data"] as? [String: Any],
            let result = data["result"] as? [[String: Any]]
        else { throw ServerError(description: "query \(promQL): HTTP \(status): \(String(decoding: body, as: UTF8.self))") }
        return result.map { series in
            ((series["metric"] as? [String: String]) ?? [:], ((series["value"] as? [Any])?.last as? String) ?? "")
        }
    }

    /// Every series that matches `selector` and had a sample in the last
    /// `seconds` (`/api/v1/series`), each its labels: stale ones too.
    func series(_ selector: String, withinLast seconds: Double) throws -> [[String: String]] {
        var components = URLComponents(string: prometheusURL + "/api/v1/series")!
        let now = Date().timeIntervalSince1970
        components.queryItems = [
            URLQueryItem(name: "match[]", value: selector), URLQueryItem(name: "start", value: String(now - seconds)),
            URLQueryItem(name: "end", value: String(now + 1)),
        ]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        let (status, body) = try HTTP.get(components.url!.absoluteString)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        guard status == 200, object?["status"] as? String == "success", let data = object?["data"] as? [[String: String]] else {
            throw ServerError(description: "series \(selector): HTTP \(status): \(String(decoding: body, as: UTF8.self))")
        }
        return data
    }

    /// The Pushgateway's groups (`/api/v1/metrics`), each its labels.
    func groups() throws -> [[String: String]] {
        let (status, body) = try HTTP.get(pushgatewayURL + "/api/v1/metrics")
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        guard status == 200, let data = object?["data"] as? [[String: Any]] else {
            throw ServerError(description: "/api/v1/metrics: HTTP \(status): \(String(decoding: body, as: UTF8.self))")
        }
        return data.map { ($0["labels"] as? [String: String]) ?? [:] }
    }

    /// Polls `promQL` until it gives `count` series (at most 30 s): the
    /// scrapes after a push take a second or two.
    @discardableResult
    func waitFor(_ promQL: String, count: Int) throws -> [(labels: [String: String], value: String)] {
        let deadline = Date().addingTimeInterval(30)
        var last: [(labels: [String: String], value: String)] = []
        while Date() < deadline {
            last = try query(promQL)
            if last.count == count { return last }
            usleep(200_000)
        }
        throw ServerError(description: "\(promQL) gave \(last.count) series, not \(count), within 30 s: \(last)")
    }
}

/// A GET through URLSession, waited for (10 s at most).
enum HTTP {
    private final class Box: @unchecked Sendable {
        var result: (Int, Data)?
        var error: (any Error)?
    }

    static func get(_ address: String) throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: address)!)
        request.timeoutInterval = 10
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            box.error = error
            if let response = response as? HTTPURLResponse { box.result = (response.statusCode, data ?? Data()) }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 15) == .success else { throw PrometheusServers.ServerError(description: "GET \(address): no answer") }
        if let error = box.error { throw error }
        guard let result = box.result else { throw PrometheusServers.ServerError(description: "GET \(address): no HTTP answer") }
        return result
    }
}
