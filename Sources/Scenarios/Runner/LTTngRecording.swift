import Foundation
import Probes
import ToolSupport

/// An LTTng session for `perf-run run --lttng`: starts a session daemon if
/// none answers, records `faultline:*` on a blocking channel (with each
/// event's process ID), and afterwards stops, checks that nothing was
/// discarded, reads the trace back with babeltrace2, and stops what it
/// started. The trace stays for babeltrace2 or Trace Compass users: in a
/// local directory, or on an `lttng-relayd` (``Destination``).
///
/// Safe and bounded:
/// - every check comes first (the tools, the output directory, the
///   tracepoint provider); nothing is started or removed before all passed;
/// - every wait on another program has a time limit (``Limits``); one that
///   passes kills the program by its process ID and says, in one line, what
///   was waited for and how long;
/// - from the start of a daemon or the creation of the session until the
///   teardown, a signal that ends the process destroys the session and stops
///   the daemon this started (``TerminationSignals/onTermination(_:)``);
/// - the output directory is replaced only when it holds a trace Faultline
///   made, and then only the trace (``LTTngTraceDirectory``);
/// - a relay is checked to answer on its three ports before anything
///   starts; its live reader is stopped by its process ID.
public final class LTTngRecording {
    /// Where the trace goes.
    public enum Destination: Equatable, Sendable {
        /// A local directory, read back with `babeltrace2 DIRECTORY`.
        case directory(String)
        /// An `lttng-relayd`, as a live session: read back with babeltrace2's
        /// `lttng-live` input from the relay's live port, which works from
        /// any machine that reaches the relay (``LTTngLiveReader``).
        case relay(LTTngRelay)
    }

    public let session: String
    public let destination: Destination
    /// The trace's directory, for a local one.
    public var directory: String? {
        if case .directory(let directory) = destination { return directory }
        return nil
    }
    /// Where the relay keeps the trace, under its output directory
    /// (`HOSTNAME/SESSION-DATE-TIME`, lttng-relayd's default layout), for
    /// a relay.
    public var relayTracePath: String? {
        guard case .relay = destination, let url = teardown.reader?.url, let host = url.range(of: "/host/") else { return nil }
        return "\(url[host.upperBound...])-*"
    }
    private let teardown: Teardown
    private let registration: TerminationSignals.Registration
    /// For a relay: whether it still answers, while the run records.
    private var watch: LTTngRelayWatch?

    /// Why LTTng cannot be used, or a wait that took too long, in one line.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// How long each wait on another program may take, in seconds.
    enum Limits {
        /// `lttng-sessiond --daemonize`, which returns once the daemon answers.
        static let daemonStart = 10.0
        /// The daemon started, until `lttng list` answers.
        static let daemonAnswer = 5.0
        /// An `lttng` command that changes a session's settings.
        static let command = 10.0
        /// `lttng stop` and `lttng destroy`, which wait for the buffers to be
        /// written out.
        static let flush = 60.0
        /// babeltrace2, streaming the trace: the longest it may print nothing.
        static let traceSilence = 60.0
        /// A daemon this started, after SIGTERM, before SIGKILL.
        static let daemonExit = 5.0
        /// This process's tracepoints enabled, after `lttng start`.
        static let tracepointsEnabled = 5.0
        /// A relay's port, to accept a connection.
        static let relayAnswer = 5.0
        /// A live session, to show on the relay, and babeltrace2 to attach to it.
        static let relayAttach = 10.0
        /// An event, for room in a relay session's full buffers.
        static let relayBlocking = 5.0
    }

    /// Checks, then starts recording into `directory`.
    public convenience init(directory: String) throws {
        try self.init(destination: .directory(directory))
    }

    /// Checks, then starts recording into `destination`. Loads the
    /// tracepoint provider (``LTTngSink/load(providerPath:)``) once a
    /// session daemon runs, with `LTTNG_UST_ALLOW_BLOCKING=1` set for this
    /// process.
    public init(destination: Destination) throws {
        // Every check first: nothing is started or removed before all passed.
        for tool in ["lttng", "lttng-sessiond", "babeltrace2"] where Self.find(tool) == nil {
            throw Unavailable(description: "--lttng needs \(tool), which is not installed (Debian: lttng-tools, babeltrace2)")
        }
        var earlier = LTTngTraceDirectory.Earlier.nothing
        switch destination {
        case .directory(let directory): earlier = try LTTngTraceDirectory.check(directory)
        case .relay(let relay): try relay.checkAnswers(within: Limits.relayAnswer)
        }
        if let reason = LTTngSink.unavailability() { throw Unavailable(description: "--lttng: \(reason)") }

        let session = "faultline-\(getpid())-\(UUID().uuidString.prefix(6))"
        self.session = session
        self.destination = destination
        let teardown = Teardown(session: session)
        self.teardown = teardown
        // From here on a signal that ends the process stops what this started.
        registration = TerminationSignals.onTermination { teardown.performForSignal() }
        do {
            try teardown.step { teardown.daemon = try Self.startDaemonIfNeeded() }
            // Loaded while a daemon runs, lttng-ust registers this process
            // with it before the load returns; the session's settings then
            // reach it as they are made. The variable is read at that load.
            setenv("LTTNG_UST_ALLOW_BLOCKING", "1", 1)
            let sink: LTTngSink
            switch LTTngSink.load() {
            case .success(let loaded): sink = loaded
            case .failure(let reason): throw Unavailable(description: "--lttng: \(reason)")
            }
            let output: [String]
            switch destination {
            case .directory(let directory):
                // All checked: the earlier trace goes now, and the directory is marked.
                try LTTngTraceDirectory.prepare(directory, replacing: earlier, session: session)
                output = ["--output=\(directory)"]
            case .relay(let relay):
                // A live session: its trace can be read back from the relay's
                // live port while the session exists, from any machine.
                output = ["--live", "--set-url=\(relay.url)"]
            }
            try teardown.step {
                teardown.sessionMayExist = true
                try Self.require("lttng", ["create", session] + output)
            }
            // A relay that goes away leaves the buffers full: an event waits
            // so long, then is discarded (and the run fails), rather than
            // for ever.
            let blockingTimeout: String
            switch destination {
            case .directory: blockingTimeout = "inf"
            case .relay: blockingTimeout = String(Int(Limits.relayBlocking * 1_000_000))
            }
            for arguments in [
                [
                    "enable-channel", "--session=\(session)", "--userspace", "--blocking-timeout=\(blockingTimeout)", "--subbuf-size=4M", "--num-subbuf=8",
                    "blocking",
                ],
                ["enable-event", "--session=\(session)", "--userspace", "--channel=blocking", "faultline:*"],
                ["add-context", "--session=\(session)", "--userspace", "--channel=blocking", "--type=vpid"],
                ["start", session],
            ] {
                try teardown.step { try Self.require("lttng", arguments) }
            }
            if case .relay(let relay) = destination {
                // A live reader sees what is traced after it attached: it
                // attaches now, before the run traces anything.
                try teardown.step {
                    teardown.reader = try LTTngLiveReader(
                        relay: relay, session: session, processID: getpid(), babeltrace: Self.find("babeltrace2") ?? "babeltrace2")
                }
            }
            try Self.waitUntilEnabled(sink)
            if case .relay(let relay) = destination {
                watch = LTTngRelayWatch(relay: relay) {
                    // Its events would each wait for room, then be
                    // discarded: stopped, the tracepoints are off.
                    _ = try? teardown.step { try Self.command("lttng", ["stop", session], limit: .total(Limits.flush)) }
                }
            }
        } catch {
            tearDown()
            throw error
        }
    }

    deinit { tearDown() }

    /// Stops recording and returns the counters and statements per
    /// scenario of this process's events; throws when events were
    /// discarded, or when babeltrace2 fails or stalls.
    public func finish() throws -> TraceReadBack {
        let lost = watch?.stop()
        watch = nil
        let stop = try teardown.step { try Self.command("lttng", ["stop", session], limit: .total(Limits.flush)) }
        // Destroyed, a live session ends: its reader reads to the end.
        teardown.perform()
        defer { tearDown() }
        if let lost, case .relay(let relay) = destination {
            throw Unavailable(
                description: "--lttng-relay \(relay.url) stopped answering during the run (\(lost)); tracing stopped then, and the trace is incomplete")
        }
        if stop.output.contains("discarded") {
            throw Unavailable(description: "LTTng discarded events: \(Self.oneLine(stop.output))")
        }
        switch destination {
        case .directory(let directory): return try Self.read(directory)
        case .relay:
            guard let reader = teardown.reader else { throw Unavailable(description: "--lttng-relay: the live reader was stopped") }
            return try reader.finish()
        }
    }

    /// Reads the trace in `directory` back with babeltrace2: streamed, as a
    /// trace of a full run holds millions of events.
    static func read(_ directory: String) throws -> TraceReadBack {
        let stream = TraceTextStream(processID: getpid())
        let reader: BoundedCommand.Running
        let status: Int32
        do {
            reader = try BoundedCommand.start(find("babeltrace2") ?? "babeltrace2", [directory], output: .stream { stream.append($0) })
            status = try reader.wait(limit: .silence(Limits.traceSilence)).status
        } catch let error as BoundedCommand.TimedOut {
            throw Unavailable(description: "--lttng: babeltrace2 \(directory) printed nothing for \(seconds(error.limit.seconds)); stopped")
        } catch let error as BoundedCommand.SpawnFailed {
            throw Unavailable(description: "--lttng: \(error.description)")
        }
        guard status == 0 else {
            let reason = babeltraceError(scanning: reader.scanErrorLines).map { ": \($0)" } ?? ""
            throw Unavailable(description: "babeltrace2 could not read \(directory) (exit \(status))\(reason)")
        }
        return stream.finish()
    }

    /// The first error babeltrace2 logged, from the lines of its standard
    /// error that `scan` gives (until the visitor returns false): the
    /// message of its first `E` (error) line, which names the cause (its
    /// closing summary names mostly the command line's failure), or its
    /// last line when it logged none; on one line, at most 300 characters.
    static func babeltraceError(scanning scan: ((Substring) -> Bool) -> Void) -> String? {
        var logged: String?
        var last: String?
        scan { line in
            // "11-25 20:02:30.728 26154 26154 E CLI main@babeltrace2.c:2662 Command-line error: retcode=1"
            let fields = line.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: true)
            if fields.count == 8, fields[4] == "E", fields[6].contains("@") {
                logged = String(fields[7])
                return false
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { last = text }
            return true
        }
        guard let message = logged ?? last else { return nil }
        return message.count > 300 ? String(message.prefix(299)) + "…" : message
    }

    /// Destroys the session, stops a daemon this started (once; a signal's
    /// teardown may have done it already) and a live reader.
    public func tearDown() {
        _ = watch?.stop()
        watch = nil
        teardown.perform()
        teardown.stopReader()
        registration.remove()
    }

    /// What this recording started, stopped once: by the recording, or by a
    /// signal that ends the process (on the signals' queue) while the
    /// recording is still setting up.
    private final class Teardown: @unchecked Sendable {
        let session: String
        private let lock = NSLock()
        /// Set under the lock, in a ``step(_:)``.
        var daemon: Int32?
        var sessionMayExist = false
        /// The live reader of a relay's session.
        var reader: LTTngLiveReader? {
            didSet { readerPID = reader?.pid }
        }
        /// Its process, for a signal's teardown.
        private var readerPID: Int32?
        private var done = false

        init(session: String) { self.session = session }

        /// Runs one step of the recording's life under the lock: a signal's
        /// teardown waits for the step (each has a time limit), and no step
        /// runs after the teardown.
        @discardableResult
        func step<T>(_ body: () throws -> T) throws -> T {
            lock.lock()
            defer { lock.unlock() }
            guard !done else { throw Unavailable(description: "--lttng: the recording was stopped") }
            return try body()
        }

        /// Destroys the session and stops the daemon this started.
        func perform() {
            lock.lock()
            defer { lock.unlock() }
            stop(quickly: false)
        }

        /// The same for a signal that ends the process, without waiting for
        /// the session's data to be written out. The lock stays taken: the
        /// process ends next, and no step of the recording may run (nor fail
        /// and exit with another status) before it does.
        func performForSignal() {
            lock.lock()
            // The reader may be reading (outside any step): killed by its
            // ID, not reaped, as the process ends next.
            if let readerPID, LTTngRecording.isRunning(readerPID, named: "babeltrace2") { kill(readerPID, SIGKILL) }
            stop(quickly: true)
        }

        /// Stops the live reader, once the recording is over.
        func stopReader() {
            lock.lock()
            defer { lock.unlock() }
            reader?.stop()
            readerPID = nil
        }

        /// Under the lock.
        private func stop(quickly: Bool) {
            guard !done else { return }
            done = true
            if sessionMayExist {
                _ = try? LTTngRecording.command(
                    "lttng", ["destroy", session] + (quickly ? ["--no-wait"] : []), limit: .total(quickly ? Limits.command : Limits.flush))
            }
            LTTngRecording.stopDaemon(daemon)
        }
    }

    // MARK: The session daemon

    /// Starts `lttng-sessiond` when none answers and waits until it does;
    /// returns the process it started, nil when one answered already.
    public static func startDaemonIfNeeded() throws -> Int32? {
        if try command("lttng", ["list"], limit: .total(Limits.command)).status == 0 { return nil }
        let pidFile = daemonPIDFile
        let before = daemonNamed(by: pidFile)
        // Hung on its way, it is killed, and so is a daemon it forked
        // (``command(_:_:limit:)``): only its own child, never a daemon
        // another program started meanwhile.
        let started = try command("lttng-sessiond", ["--daemonize"], limit: .total(Limits.daemonStart))
        guard started.status == 0 else {
            throw Unavailable(description: "--lttng: lttng-sessiond --daemonize failed: \(oneLine(started.output))")
        }
        guard let pid = daemonNamed(by: pidFile), pid != before else {
            throw Unavailable(description: "--lttng: lttng-sessiond started, but \(pidFile) names no lttng-sessiond it started")
        }
        let deadline = BoundedCommand.monotonicSeconds() + Limits.daemonAnswer
        while (try? command("lttng", ["list"], limit: .total(Limits.command)))?.status != 0 {
            guard BoundedCommand.monotonicSeconds() < deadline else {
                stopDaemon(pid)
                throw Unavailable(description: "--lttng: lttng-sessiond (process \(pid)) did not answer within \(seconds(Limits.daemonAnswer))")
            }
            usleep(20_000)
        }
        return pid
    }

    /// Stops a session daemon that ``startDaemonIfNeeded()`` started, by its
    /// process ID: SIGTERM, and SIGKILL when it has not gone within
    /// ``Limits/daemonExit``. A process that is no longer a session daemon
    /// (its ID reused) is left alone.
    public static func stopDaemon(_ pid: Int32?) {
        guard let pid, isRunning(pid, named: "lttng-sessiond") else { return }
        /// Whether the daemon went within `seconds`.
        func gone(within seconds: Double) -> Bool {
            let deadline = BoundedCommand.monotonicSeconds() + seconds
            while isRunning(pid) {
                guard BoundedCommand.monotonicSeconds() < deadline else { return false }
                usleep(20_000)
            }
            return true
        }
        kill(pid, SIGTERM)
        if gone(within: Limits.daemonExit) { return }
        kill(pid, SIGKILL)
        _ = gone(within: 1)
    }

    /// Where a session daemon started by this user writes its process ID:
    /// root's in /var/run/lttng, another user's under `$LTTNG_HOME/.lttng`
    /// (`$HOME` without it), as lttng-sessiond has it.
    public static var daemonPIDFile: String {
        if getuid() == 0 { return "/var/run/lttng/lttng-sessiond.pid" }
        let environment = ProcessInfo.processInfo.environment
        let home = environment["LTTNG_HOME"] ?? environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".lttng/lttng-sessiond.pid").path
    }

    /// The running lttng-sessiond whose process ID `file` holds.
    static func daemonNamed(by file: String) -> Int32? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
            isRunning(pid, named: "lttng-sessiond")
        else { return nil }
        return pid
    }

    /// Whether `pid` runs (a zombie has ended), with that command name if given.
    static func isRunning(_ pid: Int32, named name: String? = nil) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        guard state != "Z", state != "X" else { return false }
        return name.map { $0.prefix(15) == stat[stat.index(after: open)..<close] } ?? true
    }

    /// Waits until the session's settings reached this process: its
    /// `faultline:*` tracepoints are enabled.
    private static func waitUntilEnabled(_ sink: LTTngSink) throws {
        let deadline = BoundedCommand.monotonicSeconds() + Limits.tracepointsEnabled
        while !sink.isEnabled(.scenario) {
            guard BoundedCommand.monotonicSeconds() < deadline else {
                throw Unavailable(
                    description: "--lttng: this process's faultline tracepoints were not enabled within \(seconds(Limits.tracepointsEnabled)) of lttng start")
            }
            usleep(10_000)
        }
    }

    // MARK: Commands

    static func find(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    @discardableResult
    private static func require(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try command(tool, arguments, limit: .total(Limits.command))
        guard result.status == 0 else {
            throw Unavailable(description: "\(tool) \(arguments.first ?? "") failed: \(oneLine(result.output))")
        }
        return result
    }

    /// Runs `tool` within `limit`; a limit that passes kills it (and a
    /// session daemon it forked) and throws ``Unavailable`` saying what was
    /// waited for and how long.
    static func command(_ tool: String, _ arguments: [String], limit: BoundedCommand.Limit) throws -> (status: Int32, output: String) {
        guard let path = find(tool) else {
            throw Unavailable(description: "--lttng needs \(tool), which is not installed (Debian: lttng-tools, babeltrace2)")
        }
        // `lttng` never launches a session daemon of its own: if the daemon
        // seen running goes away, a command fails at once.
        let full = (tool == "lttng" ? ["--no-sessiond"] : []) + arguments
        do {
            return try BoundedCommand.run(path, full, limit: limit)
        } catch let error as BoundedCommand.TimedOut {
            // A session daemon the killed tool forked (`lttng-sessiond
            // --daemonize` waiting for its child's word) is ours to stop,
            // while the killed tool is not reaped (its ID stays its own
            // until the error, which holds it, goes).
            withExtendedLifetime(error) {
                for child in error.children { stopDaemon(child) }
            }
            let shown = ([tool] + (tool == "lttng" ? arguments.prefix(1) : arguments[...])).joined(separator: " ")
            throw Unavailable(description: "--lttng: \(shown) did not return within \(seconds(limit.seconds))")
        } catch let error as BoundedCommand.SpawnFailed {
            throw Unavailable(description: "--lttng: \(error.description)")
        }
    }

    /// A program's output on one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
