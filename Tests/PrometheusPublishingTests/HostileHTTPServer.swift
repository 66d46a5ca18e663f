import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server on loopback that answers every connection badly, on a thread
/// of its own: a body of a gigabyte, bytes that are not HTTP, a connection
/// closed without an answer or in the middle of one. It counts the bytes
/// it managed to send, so a test can tell how much a client read.
final class HostileHTTPServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// `200 OK` and a body of `bytes` zeros, its length declared or not
        /// (then the body ends when the connection closes).
        case hugeBody(bytes: Int, declared: Bool)
        /// A line that is no HTTP status line (an SSH server's banner).
        case garbage
        /// The connection closed once the request is read.
        case closeWithoutAnswer
        /// Headers that announce 1,000 bytes, 10 of them, then the close.
        case closeMidBody
    }

    let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    private var thread: Thread?

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PrometheusServers.ServerError(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, 8) == 0 else {
            close(descriptor)
            throw PrometheusServers.ServerError(description: "bind or listen: \(errno)")
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    var address: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting (a connection being served ends by itself).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        readRequest(connection)
        switch behaviour {
        case .hugeBody(let bytes, let declared):
            let length = declared ? "Content-Length: \(bytes)\r\n" : "Connection: close\r\n"
            guard send(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\(length)\r\n".utf8), to: connection) else { return }
            let chunk = [UInt8](repeating: 0x30, count: 1 << 16)
            var left = bytes
            while left > 0 {
                guard send(Array(chunk.prefix(left)), to: connection) else { return }
                left -= min(left, chunk.count)
            }
        case .garbage:
            _ = send(Array("SSH-2.0-OpenSSH_9.6p1 Debian-5\r\n".utf8), to: connection)
        case .closeWithoutAnswer:
            return
        case .closeMidBody:
            _ = send(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789".utf8), to: connection)
        }
    }

    /// Reads the request's head and as much of its body as its
    /// Content-Length says (a push's metrics), within 5 s.
    private func readRequest(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received += buffer[..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let headEnd = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<headEnd.lowerBound].lowercased()
            let declared = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count - text[..<headEnd.upperBound].utf8.count >= declared { return }
        }
    }

    /// Sends all of `bytes`; false once the client has gone.
    private func send(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
