import Foundation
import Testing
@testable import Scenarios

/// An `lttng-relayd` of a test's own, in a ``PrivateLTTng`` home (as its
/// user): on loopback, on three free ports, writing into its own output
/// directory; stopped by its process ID.
final class TestRelay {
    let controlPort: Int
    let dataPort: Int
    let livePort: Int
    /// Where the relay writes the traces it receives (`--output`).
    let output: URL
    private let child: Child

    /// `net://127.0.0.1:CTRL:DATA`, for `--lttng-relay`.
    var url: String { "net://127.0.0.1:\(controlPort):\(dataPort)" }

    /// Starts the relay and waits (at most 10 s) until its three ports answer.
    init(in home: PrivateLTTng) throws {
        let relayd = try #require(
            ["/usr/bin/lttng-relayd", "/usr/local/bin/lttng-relayd"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "lttng-relayd is not installed (scripts/install-system-packages.sh --test installs lttng-tools)")
        let ports = try Self.freePorts(3)
        (controlPort, dataPort, livePort) = (ports[0], ports[1], ports[2])
        output = home.home.appendingPathComponent("relay-output")
        let (program, arguments) = home.command(relayd, [
            "--control-port=tcp://127.0.0.1:\(controlPort)", "--data-port=tcp://127.0.0.1:\(dataPort)",
            "--live-port=tcp://127.0.0.1:\(livePort)", "--output=\(output.path)",
        ])
        child = try Child(program, arguments, environment: home.environment, in: home.home, keepingOutput: true)
        let deadline = Date().addingTimeInterval(10)
        while [controlPort, dataPort, livePort].contains(where: { TCPReachability.refusal(host: "127.0.0.1", port: $0, within: 1) != nil }) {
            guard child.isRunning, Date() < deadline else {
                stop()
                Issue.record("lttng-relayd did not answer on ports \(ports) within 10 s: \(child.stderr)")
                throw Unanswered()
            }
            usleep(20_000)
        }
    }

    struct Unanswered: Error {}

    /// The relay's process ID.
    var pid: Int32 { child.pid }

    /// SIGTERM, and SIGKILL when it has not ended within 5 s.
    func stop() {
        guard child.isRunning else { return }
        kill(child.pid, SIGTERM)
        _ = child.wait(upTo: 5)
    }

    /// `count` distinct TCP ports free on loopback now (bound at once, then
    /// released for the relay).
    static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(socket >= 0, "socket: \(String(cString: strerror(errno)))")
            sockets.append(socket)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
                }
            }
            try #require(bound, "bind: \(String(cString: strerror(errno)))")
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
