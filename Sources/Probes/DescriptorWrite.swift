import Foundation

/// Writing bytes to a file descriptor whole: the one loop behind every
/// output of the engine's logs and of the command's reports.
public enum DescriptorWrite {
    /// Writes all of `bytes`, through interruptions, partial writes and a
    /// non-blocking descriptor's waits: the bytes written, and the error
    /// that stopped it, if any.
    public static func all(_ descriptor: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> (written: Int, error: Int32?) {
        var offset = 0
        while offset < bytes.count {
            let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count > 0 {
                offset += count
                continue
            }
            if count == 0 { return (offset, EIO) }
            let error = errno
            switch error {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                var wait = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&wait, 1, -1) < 0, errno != EINTR { return (offset, errno) }
            default: return (offset, error)
            }
        }
        return (offset, nil)
    }
}
