import Foundation

/// A pseudo-terminal for a command's output: the command writes to its
/// terminal side as to a user's terminal (`isatty` is true), and the test
/// reads everything it wrote, escape sequences and all, from the other.
public final class PseudoTerminal: @unchecked Sendable {
    /// The side the test reads.
    private let controller: Int32
    /// The side the command writes to (its standard output or error).
    public let terminal: FileHandle
    private let lock = NSLock()
    private var bytes = Data()
    private let reader = DispatchGroup()

    /// A terminal of `columns` × `rows` cells.
    public init(columns: Int = 200, rows: Int = 100) throws {
        // posix_openpt(3) is opening /dev/ptmx; grantpt, unlockpt and
        // ptsname_r are C library functions Swift's Glibc module leaves out.
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw POSIXError(.ENODEV) }
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
        let library = dlopen(nil, RTLD_NOW)
        guard let grant = dlsym(library, "grantpt"), let unlock = dlsym(library, "unlockpt"), let naming = dlsym(library, "ptsname_r") else {
            throw POSIXError(.ENODEV)
        }
        var name = [CChar](repeating: 0, count: 128)
        guard unsafeBitCast(grant, to: Call.self)(controller) == 0, unsafeBitCast(unlock, to: Call.self)(controller) == 0,
            unsafeBitCast(naming, to: Name.self)(controller, &name, name.count) == 0
        else { throw POSIXError(.ENODEV) }
        let terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw POSIXError(.ENODEV) }
        // Raw: what the command writes arrives as it was written (no "\n" to "\r\n").
        var settings = termios()
        tcgetattr(terminal, &settings)
        cfmakeraw(&settings)
        tcsetattr(terminal, TCSANOW, &settings)
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
        self.controller = controller
        self.terminal = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
        reader.enter()
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count <= 0 { break }
                lock.withLock { bytes.append(contentsOf: buffer[0..<count]) }
            }
            reader.leave()
        }
    }

    /// What the command wrote so far.
    public var output: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Everything the command wrote, once it ended: the terminal side is
    /// closed here, and the reader waits for the rest.
    public func finish() -> String {
        try? terminal.close()
        _ = reader.wait(timeout: .now() + 5)
        close(controller)
        return output
    }
}
