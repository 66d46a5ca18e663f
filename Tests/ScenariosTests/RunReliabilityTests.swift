@testable import BuiltInScenarios
import Foundation
import ObjectGraph
import Reporting
@testable import Scenarios
import TestSupport
import Testing

/// `perf-run run` with bad input, special files, signals, a full disk and a
/// damaged cache: nothing lost, nothing replaced, no crash, no silent wait.
@Suite struct RunReliabilityTests {
    /// A fresh directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-reliability-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    // MARK: Outputs

    /// A character device, a FIFO and symbolic links given as outputs are
    /// written through or kept: never replaced by a regular file.
    @Test func specialOutputsAreWrittenThroughNotReplaced() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let null = directory.appendingPathComponent("null").path
        let fifo = directory.appendingPathComponent("fifo").path
        let real = directory.appendingPathComponent("real.html").path
        let link = directory.appendingPathComponent("link.html").path
        let dangling = directory.appendingPathComponent("dangling.json").path
        let logLink = directory.appendingPathComponent("log-link").path
        #expect(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod needs root: \(String(cString: strerror(errno)))")
        #expect(mkfifo(fifo, 0o644) == 0)
        try Data("old page".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.html")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made-by-link.json")
        try FileManager.default.createSymbolicLink(atPath: logLink, withDestinationPath: "sql.log")
        // Something must read the FIFO, as `cat fifo` would.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let readerOutput = Pipe()
        reader.standardOutput = readerOutput
        try reader.run()

        let result = try PerfRunProcess.run([
            "run", "DidFault", "--scale", "0.02", "--iterations", "1", "--quiet", "--json", null, "--html", link,
            "--trace-events", fifo, "--sql-debug", "1", "--sql-log", logLink,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let traced = readerOutput.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect((try JSONSerialization.jsonObject(with: traced) as? [String: Any])?["traceEvents"] != nil)

        #expect(Self.kind(null) == S_IFCHR)
        #expect(Self.kind(fifo) == S_IFIFO)
        #expect(Self.kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(Self.kind(logLink) == S_IFLNK)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("sql.log").path, encoding: .utf8).contains("faultline: sql: "))

        // report --html and --markdown: the same for the report command.
        let report = directory.appendingPathComponent("report.json").path
        #expect(try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--quiet", "--json", report]).status == 0)
        let summary = try PerfRunProcess.run(["report", report, "--html", dangling, "--markdown", null])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(Self.kind(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("made-by-link.json").path, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(Self.kind(null) == S_IFCHR)
    }

    /// The file type `lstat` sees (`S_IFCHR`, `S_IFIFO`, `S_IFLNK`, …).
    private static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// Only `--html`'s default path is derived from `--json`: a run that
    /// names its JSON writes nothing in Reports/ of its directory.
    @Test func theHTMLReportGoesBesideTheJSONByDefault() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("out/run.json").path
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--quiet", "--json", json], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/run.html").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Reports").path))
    }

    @Test(arguments: [
        (["--json", "a.json", "--html", "./a.json"], "--html ./a.json and --json a.json are the same file: one would overwrite the other\n"),
        (["--json", "b.json", "--trace-events", "b.json"], "--trace-events b.json and --json b.json are the same file: one would overwrite the other\n"),
        (["--json", "c.json", "--sql-debug", "1", "--sql-log", "c.html"], "--sql-log c.html and --html c.html are the same file: one would overwrite the other\n"),
        (["--json", "."], ".: cannot write: a directory\n"),
    ])
    func outputsThatWouldOverwriteEachOtherAreRefused(options: [String], message: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try PerfRunProcess.run(["run", "FetchAll"] + options, in: directory)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    // MARK: Values

    @Test(arguments: [
        (["--scale", "-1"], "--scale must be between 0.01 and 4, not -1.0\n"),
        (["--iterations", "-1"], "--iterations must be 1 to 100000, not -1\n"),
        (["--warmup", "-3"], "--warmup must be 0 to 100000, not -3\n"),
        (["--iterations", "9223372036854775807"], "--iterations must be 1 to 100000, not 9223372036854775807\n"),
        (["--warmup", "9223372036854775807"], "--warmup must be 0 to 100000, not 9223372036854775807\n"),
        (["--seed", "-1"], "The value '-1' is invalid for '--seed <seed>': a whole number from 0 to 18446744073709551615, not -1\n"),
        (["--timeout", "-2"], "--timeout must be a positive number of seconds, not -2.0\n"),
        (["FetchAll", "Predicate", "FetchAll"], "scenario FetchAll is named twice\n"),
    ])
    func badValuesSayWhatIsWrongWithThem(options: [String], message: String) throws {
        let result = try PerfRunProcess.run(["run"] + options)
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    // MARK: Unusable places

    /// The SQL log is an output like the reports: its directory is made
    /// when missing; a file in the way is one line and exit code 2.
    @Test func anSQLLogThatCannotBeWrittenIsOneLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing/sql.log").path
        let result = try PerfRunProcess.run([
            "run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--sql-debug", "2", "--sql-log", missing, "--json",
            directory.appendingPathComponent("r.json").path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: missing, encoding: .utf8).contains("faultline: sql: "))
        let file = directory.appendingPathComponent("file").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let underFile = try PerfRunProcess.run([
            "run", "FetchAll", "--sql-debug", "2", "--sql-log", file + "/sql.log", "--json", directory.appendingPathComponent("r.json").path,
        ])
        #expect(underFile.status == 2)
        #expect(underFile.stderr == "\(file)/sql.log: cannot write: Not a directory\n")
    }

    @Test func anUnusableTemporaryDirectoryIsOneLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("r.json").path
        let missing = directory.appendingPathComponent("no-such-dir").path
        let result = try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--json", json], environment: ["TMPDIR": missing])
        #expect(result.status == 2)
        #expect(result.stderr == "the temporary directory \(missing) (TMPDIR) does not exist or is not a directory\n")
        let file = directory.appendingPathComponent("a-file").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let onFile = try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--json", json], environment: ["TMPDIR": file])
        #expect(onFile.status == 2)
        #expect(onFile.stderr == "the temporary directory \(file) (TMPDIR) does not exist or is not a directory\n")
        #expect(!FileManager.default.fileExists(atPath: json))
    }

    // MARK: The data set cache

    /// One changed byte in a stored name is caught by the checksum recorded
    /// at build time, and the file is built again.
    @Test func aDamagedCachedDataSetIsBuiltAgain() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = DataSetCache(directory: directory)
        let path = try cache.file(for: .selfies, scale: 0.02, seed: 1)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged = original
        let name = try #require(damaged.range(of: Data("Selfie 7".utf8)))
        damaged[name.upperBound - 1] = UInt8(ascii: "X")
        try damaged.write(to: URL(fileURLWithPath: path))
        // The damaged file is a valid database with the right row counts:
        // only the checksum can tell.
        var messages: [String] = []
        let again = try cache.file(for: .selfies, scale: 0.02, seed: 1, progress: { messages.append($0) })
        #expect(again == path)
        #expect(messages.first?.contains("checksum") == true, "\(messages)")
        #expect(messages.contains("building data set selfies at scale 0.02, seed 1"))
        let rebuilt = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(rebuilt.range(of: Data("Selfie X".utf8)) == nil)
        #expect(rebuilt.count == original.count)
        // An intact file is reused as it is.
        messages = []
        _ = try cache.file(for: .selfies, scale: 0.02, seed: 1, progress: { messages.append($0) })
        #expect(messages.isEmpty)
    }

    /// A builder killed with SIGKILL leaves `*.building-PID` files (and a
    /// verifier its unfinished record, `*.verifying-PID-…`): the next
    /// process that takes the lock removes them, and another name's once
    /// their process is gone.
    @Test func aDeadBuildersFilesAreRemoved() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let pid = dead.processIdentifier
        let leftovers = [
            "selfies-scale0.02-seed1-g1.sqlite.building-\(pid)", "selfies-scale0.02-seed1-g1.sqlite.building-\(pid)-wal",
            "fireballs-scale3.0-seed1-g1.sqlite.building-\(pid)", "fireballs-scale3.0-seed1-g1.sqlite.building-\(pid).checksum",
            "selfies-scale0.02-seed1-g1.sqlite.verifying-\(pid)-1f", "fireballs-scale3.0-seed1-g1.sqlite.verifying-\(pid)-2e",
        ]
        let alive = "fireballs-scale2.0-seed1-g1.sqlite.building-\(getpid())"
        for name in leftovers + [alive] {
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data(count: 4096)))
        }
        _ = try DataSetCache(directory: directory).file(for: .selfies, scale: 0.02, seed: 1)
        let remaining = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(remaining.filter { $0.contains(".building-") || $0.contains(".verifying-") } == [alive])
    }

    /// A build that fails for want of space removes its files, does not
    /// say it built, and stops the run with one line naming the file and
    /// SQLite's reason, exit code 2 (`ulimit -f` stands in for a full disk;
    /// PerfRunTests' DataSetFullDiskTests fill a real one).
    @Test func aBuildOnAFullDiskLeavesNothing() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("r.json").path
        let command = "ulimit -f 600; trap '' XFSZ; exec \(PerfRunProcess.executable) run FetchAll --scale 0.5 --iterations 1 --json \(json)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.environment = ["TMPDIR": directory.path, "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = "\(directory.path)/faultline-datasets/selfies-scale0.5-seed1-g1.sqlite: cannot build the data set: disk I/O error"
        #expect(process.terminationStatus == 2, "\(stderr)")
        #expect(!stderr.contains("built"), "\(stderr)")
        #expect(stderr.split(separator: "\n").contains { $0 == line }, "\(stderr)")
        let report = try ReportFile.read(json)
        #expect(report.scenarios.first?.status == .failed)
        #expect(report.scenarios.first?.error == line)
        let cached = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("faultline-datasets").path)
        #expect(cached == ["selfies-scale0.5-seed1-g1.lock"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("faultline-run-") }.isEmpty)
    }

    /// A writing scenario gets a fresh copy each iteration, and the last
    /// one's copy is gone by then: one copy on disk at a time.
    @Test func aWritingScenarioKeepsOneCopyAtATime() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copies = Scenario(name: "CountCopies", summary: "", dataSet: .selfies, writes: true) { iteration in
            let folder = (iteration.store.path as NSString).deletingLastPathComponent
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }
            iteration.record("copies", Double(files.count))
            try iteration.check(files.count == 1, "copies on disk: \(files.sorted())")
        }
        var options = RunOptions()
        options.configuration.scale = 0.02
        options.configuration.iterations = 3
        let runner = ScenarioRunner(options: options, cache: DataSetCache(directory: directory))
        let report = runner.run(copies)
        #expect(report.status == .passed, "\(report.error ?? "")")
        #expect(report.values["copies"] == 1)
    }

    // MARK: Signals and waits

    /// A run started in the background, its standard error read as it comes.
    final class Background: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var text = ""

        init(_ arguments: [String], environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: PerfRunProcess.executable)
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            let err = Pipe()
            process.standardError = err
            err.fileHandleForReading.readabilityHandler = { [self] handle in
                let data = handle.availableData
                lock.lock()
                text += String(decoding: data, as: UTF8.self)
                lock.unlock()
            }
            try process.run()
        }

        var stderr: String {
            lock.lock()
            defer { lock.unlock() }
            return text
        }

        /// Waits (at most `seconds`) until standard error contains `needle`.
        func wait(for needle: String, seconds: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if stderr.contains(needle) { return true }
                usleep(20_000)
            }
            return false
        }

        /// Sends `signal` and returns the exit status and the seconds until exit.
        func stop(with signal: Int32) -> (status: Int32, seconds: Double) {
            let start = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return (process.terminationStatus, Date().timeIntervalSince(start))
        }
    }

    /// While another process holds a data set's lock, a run says whom it
    /// waits for, and Ctrl-C, SIGTERM, SIGHUP and --timeout all end the
    /// wait in order: the report of what ran is written.
    @Test func waitingForAnotherBuilderSaysSoAndStops() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("faultline-datasets")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let lock = open(cache.appendingPathComponent("selfies-scale0.02-seed1-g1.lock").path, O_CREAT | O_RDWR, 0o644)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        _ = "4242\n".withCString { write(lock, $0, 5) }
        let environment = ["TMPDIR": directory.path]
        for (signal, code, reason) in [
            (SIGINT, Int32(130), "interrupted (Ctrl-C)"), (SIGTERM, 143, "terminated (SIGTERM)"), (SIGHUP, 129, "hung up (SIGHUP)"),
        ] {
            let json = directory.appendingPathComponent("r-\(signal).json").path
            let run = try Background(["run", "FetchAll", "--scale", "0.02", "--json", json], environment: environment)
            #expect(run.wait(for: "waiting for another perf-run (process 4242) building data set selfies-scale0.02-seed1-g1"), "\(run.stderr)")
            let (status, seconds) = run.stop(with: signal)
            #expect(status == code)
            #expect(seconds < 5, "took \(seconds) s to stop")
            #expect(try ReportFile.read(json).scenarios.first?.error == "stopped: \(reason)")
        }
        let json = directory.appendingPathComponent("r-timeout.json").path
        let timed = try PerfRunProcess.run(
            ["run", "FetchAll", "DidFault", "--scale", "0.02", "--timeout", "0.5", "--json", json, "--quiet"], environment: environment)
        #expect(timed.status == 1)
        #expect(try ReportFile.read(json).scenarios.map(\.error) == ["stopped: timed out after 0.5 s", "stopped: timed out after 0.5 s"])
        // Every run removed its work directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("faultline-run-") }.isEmpty)
    }

    /// A data set being built stops at a signal (sent as its first rows
    /// are written): the half-built files and the run's work directory are
    /// gone, the report is written, the exit code is the signal's.
    @Test(arguments: [(SIGTERM, Int32(143), "terminated (SIGTERM)"), (SIGINT, 130, "interrupted (Ctrl-C)")], SignalStress.rounds)
    func aSignalStopsABuildAndCleansUp(signal: (number: Int32, status: Int32, reason: String), round: Int) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("r.json").path
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--json", json, "--quiet"],
            environment: ["TMPDIR": directory.path].merging(SignalStress.signal(signal.number, at: "dataset.building")) { $1 })
        #expect(result.status == signal.status, "round \(round): \(result.stderr)")
        #expect(try ReportFile.read(json).scenarios.first?.error == "stopped: \(signal.reason)")
        let cached = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("faultline-datasets").path)
        #expect(cached == ["selfies-scale0.02-seed1-g1.lock"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("faultline-run-") }.isEmpty)
    }

    /// A signal during a scenario's first measured iteration stops the run
    /// in order: the report says so and is written, the exit code is the
    /// signal's, and the run's work directory is gone.
    @Test(arguments: [(SIGTERM, Int32(143), "terminated (SIGTERM)"), (SIGHUP, 129, "hung up (SIGHUP)")], SignalStress.rounds)
    func aSignalDuringAScenarioWritesTheReport(signal: (number: Int32, status: Int32, reason: String), round: Int) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("r.json").path
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "2", "--json", json, "--quiet"],
            environment: ["TMPDIR": directory.path].merging(SignalStress.signal(signal.number, at: "run.scenario")) { $1 })
        #expect(result.status == signal.status, "round \(round): \(result.stderr)")
        #expect(try ReportFile.read(json).scenarios.first?.error == "stopped: \(signal.reason)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("faultline-run-") }.isEmpty)
    }

    /// A signal while the reports are written (the scenarios are done, the
    /// JSON report's temporary file is open) still asks for an orderly
    /// stop: both reports are written whole, no temporary file is left,
    /// and the exit code is the signal's.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))], SignalStress.rounds)
    func aSignalWhileTheReportsAreWrittenStillWritesThem(signal: (number: Int32, status: Int32), round: Int) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reports = directory.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let json = reports.appendingPathComponent("r.json").path
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--json", json, "--quiet"],
            environment: ["TMPDIR": directory.path].merging(SignalStress.signal(signal.number, at: "output.temporary-file")) { $1 })
        #expect(result.status == signal.status, "round \(round): \(result.stderr)")
        let report = try ReportFile.read(json)
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
        #expect(report.scenarios.first?.status == .passed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted() == ["r.html", "r.json"])
    }
}
