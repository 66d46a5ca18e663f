import Foundation

/// Whether a TCP port accepts a connection, within a time limit: the
/// connection is closed at once, nothing is sent.
enum TCPReachability {
    /// Nil when `host`:`port` accepted a connection within `seconds`;
    /// otherwise why not, in a few words (the system's reason).
    static func refusal(host: String, port: Int, within seconds: Double) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            return "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))"
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            address = current.pointee.ai_next
            let socket = Glibc.socket(current.pointee.ai_family, current.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard socket >= 0 else {
                reason = String(cString: strerror(errno))
                continue
            }
            defer { close(socket) }
            if connect(socket, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return nil }
            guard errno == EINPROGRESS else {
                reason = String(cString: strerror(errno))
                continue
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            let deadline = BoundedCommand.monotonicSeconds() + seconds
            var ready: Int32
            repeat {
                let left = max(0, deadline - BoundedCommand.monotonicSeconds())
                ready = poll(&descriptor, 1, Int32(left * 1000))
            } while ready < 0 && errno == EINTR
            guard ready > 0 else {
                reason = ready == 0 ? "no answer within \(LTTngRecording.seconds(seconds))" : String(cString: strerror(errno))
                continue
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return nil }
            reason = String(cString: strerror(error))
        }
        return reason
    }
}
