import CDescriptors
import Foundation

/// Another program run as a child with a time limit (the LTTng tools, git):
/// when the limit passes, the child is killed (SIGKILL, by its process ID)
/// and ``TimedOut`` says so. Nothing waits for ever on a program that hangs.
///
/// The child starts with the default signal dispositions and no blocked
/// signals (whatever this process ignores or blocks), in a process group of
/// its own (a Ctrl-C at the terminal is this process's to handle: it stops
/// what it started in order), with standard input from `/dev/null` and
/// none of this process's other file descriptors.
struct BoundedCommand {
    /// How long the child may take.
    enum Limit {
        /// In all.
        case total(Double)
        /// Without printing anything: a reader of a big trace takes as long
        /// as it needs while it makes progress.
        case silence(Double)

        var seconds: Double {
            switch self {
            case .total(let seconds), .silence(let seconds): seconds
            }
        }
    }

    /// What becomes of the child's output.
    enum Output {
        case discard
        /// Standard output and error together, returned.
        case collect
        /// Each chunk of standard output as it comes; nothing is returned.
        /// Standard error goes to an unnamed temporary file, for
        /// ``Running/scanErrorLines(_:)`` (a failing reader says why there).
        case stream((Data) -> Void)
    }

    /// The child did not end within its limit, and was killed.
    struct TimedOut: Error {
        let limit: Limit
        /// The child's own children when it was killed, which outlive it
        /// (a daemon it forked, say): theirs to stop who knows what they are.
        var children: [pid_t] = []
        /// The killed child, reaped when the error is done with: until then
        /// its process ID cannot be another process's (a daemon it forked
        /// may still signal it), while the caller stops its ``children``.
        var killed: KilledChild?
    }

    /// A child killed and not yet reaped: reaped when this goes.
    final class KilledChild: Sendable {
        let pid: pid_t

        init(pid: pid_t) { self.pid = pid }

        deinit { _ = BoundedCommand.reap(pid, waiting: true) }
    }

    /// The child could not be started.
    struct SpawnFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `path` with `arguments` and waits, within `limit`, for its end.
    /// Returns its exit status (128 + the signal's number when a signal
    /// ended it) and, with `.collect`, what it printed.
    static func run(_ path: String, _ arguments: [String], limit: Limit, output: Output = .collect) throws -> (status: Int32, output: String) {
        try start(path, arguments, output: output).wait(limit: limit)
    }

    /// A new temporary file, already unlinked (gone with its descriptor);
    /// -1 when none can be made (standard error is then discarded).
    private static func unnamedFile() -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/faultline-stderr-XXXXXX").utf8CString)
        // Close-on-exec from the start: a program another thread spawns
        // meanwhile does not inherit it.
        let descriptor = template.withUnsafeMutableBufferPointer { faultline_mkstemp_cloexec($0.baseAddress!) }
        guard descriptor >= 0 else { return -1 }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    /// The processes whose parent is `pid` now (from /proc).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command's name: the state, then the parent's ID.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// Starts `path` with `arguments` and returns at once: the caller waits
    /// for its end later (``Running/wait(limit:)``), or kills it. Until then
    /// nothing reads its output: a child that fills the pipe waits there.
    static func start(_ path: String, _ arguments: [String], output: Output = .collect) throws -> Running {
        let capture: ((Data) -> Void)?
        var withErrors = false
        let running = Running()
        switch output {
        case .discard: capture = nil
        case .collect:
            capture = { [unowned running] in running.collected.append($0) }
            withErrors = true
        case .stream(let receive): capture = receive
        }
        var errorFile: Int32 = -1
        if case .stream = output { errorFile = unnamedFile() }
        let (pid, reader): (pid_t, Int32)
        do {
            (pid, reader) = try spawn(path, arguments, capturing: capture != nil, withErrors: withErrors, errorFile: errorFile)
        } catch {
            if errorFile >= 0 { close(errorFile) }
            throw error
        }
        running.pid = pid
        running.reader = reader
        running.errorFile = errorFile
        running.capture = capture
        return running
    }

    /// A child that ``start(_:_:output:)`` started. Not for several threads
    /// at once.
    final class Running {
        /// Its process ID.
        fileprivate(set) var pid: pid_t = 0
        fileprivate var reader: Int32 = -1
        fileprivate var capture: ((Data) -> Void)?
        fileprivate var collected = Data()
        /// Where its standard error goes with `.stream` (-1 otherwise).
        fileprivate var errorFile: Int32 = -1
        /// Its exit status, once reaped; 137 (SIGKILL) once a time limit
        /// killed it, before it is reaped (``TimedOut/killed``).
        private(set) var status: Int32?

        fileprivate init() {}

        deinit {
            kill()
            if reader >= 0 { close(reader) }
            if errorFile >= 0 { close(errorFile) }
        }

        /// With `.stream`: calls `visit` with each line it wrote to standard
        /// error so far, in order, until `visit` returns false; reads the
        /// file a block at a time (a long run's warnings can be many).
        func scanErrorLines(_ visit: (Substring) -> Bool) {
            guard errorFile >= 0 else { return }
            var pending: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 65_536)
            var offset: off_t = 0
            while true {
                let count = block.withUnsafeMutableBytes { pread(errorFile, $0.baseAddress, $0.count, offset) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                offset += off_t(count)
                pending += block[0..<count]
                guard let end = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
                let text = String(decoding: pending[...end], as: UTF8.self)
                pending.removeSubrange(...end)
                for line in text.split(separator: "\n") where !visit(line) { return }
            }
            if !pending.isEmpty { _ = visit(Substring(String(decoding: pending, as: UTF8.self))) }
        }

        /// Waits, within `limit`, for its end (reading its output meanwhile);
        /// returns its exit status and, with `.collect`, what it printed.
        /// When the limit passes it is killed and ``TimedOut`` thrown.
        func wait(limit: Limit) throws -> (status: Int32, output: String) {
            let start = BoundedCommand.monotonicSeconds()
            var lastOutput = start
            var open = reader >= 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            /// Reads what the pipe holds now; false at its end.
            func readAvailable() -> Bool {
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                    if count > 0 {
                        capture?(Data(buffer[0..<count]))
                        lastOutput = BoundedCommand.monotonicSeconds()
                        continue
                    }
                    if count < 0, errno == EINTR { continue }
                    // EAGAIN: nothing more for now; 0: the end.
                    return count < 0 && errno == EAGAIN
                }
            }
            while true {
                if status == nil { status = BoundedCommand.reap(pid, waiting: false) }
                if let status {
                    // Exited: what it printed is in the pipe (a program it left
                    // running may hold the pipe open: no waiting for its end).
                    if open { _ = readAvailable() }
                    return (status, String(decoding: collected, as: UTF8.self))
                }
                let now = BoundedCommand.monotonicSeconds()
                let since: Double
                switch limit {
                case .total: since = start
                case .silence: since = lastOutput
                }
                if now - since >= limit.seconds {
                    let children = BoundedCommand.children(of: pid)
                    // Killed now, reaped when the error is done with.
                    Foundation.kill(pid, SIGKILL)
                    status = 128 + SIGKILL
                    throw TimedOut(limit: limit, children: children, killed: KilledChild(pid: pid))
                }
                if open {
                    var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                    if poll(&descriptor, 1, 20) > 0 { open = readAvailable() }
                } else {
                    usleep(5_000)
                }
            }
        }

        /// Its exit status if it ended (reaped now), nil while it runs.
        func exited() -> Int32? {
            if status == nil { status = BoundedCommand.reap(pid, waiting: false) }
            return status
        }

        /// Kills it (SIGKILL, by its process ID) and reaps it, unless it
        /// was reaped already.
        func kill() {
            guard status == nil, pid > 0 else { return }
            Foundation.kill(pid, SIGKILL)
            status = BoundedCommand.reap(pid, waiting: true)
        }
    }

    /// Starts the child; returns its process ID and the read end of its
    /// output pipe (-1 without one, non-blocking), which has its standard
    /// error too `withErrors`; standard error goes to `errorFile` when that
    /// is open.
    private static func spawn(
        _ path: String, _ arguments: [String], capturing: Bool, withErrors: Bool, errorFile: Int32
    ) throws -> (pid_t, Int32) {
        var pipeEnds: [Int32] = [-1, -1]
        if capturing {
            // Neither end for another child (the child's copies are its 1
            // and 2), from the start: a program another thread spawns
            // between the pipe's making and a later fcntl would inherit
            // them, and hold the write end open.
            guard faultline_pipe_cloexec(&pipeEnds) == 0 else {
                throw SpawnFailed(description: "cannot run \(path): no pipe: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if capturing, withErrors {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        } else if errorFile >= 0 {
            posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        closeOthers(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        if capturing { close(pipeEnds[1]) }
        guard result == 0 else {
            if capturing { close(pipeEnds[0]) }
            throw SpawnFailed(description: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        return (pid, pipeEnds[0])
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// which Swift's Glibc module does not declare.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    /// Closes every descriptor above standard error in the child.
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
        // An older glibc: the descriptors open now.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            if fcntl(descriptor, F_GETFD) >= 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
    }

    /// The child's exit status once it ended (nil while it runs, without
    /// `waiting`).
    private static func reap(_ pid: pid_t, waiting: Bool) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if result == pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            return -1  // not this process's child any more: reaped elsewhere
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
