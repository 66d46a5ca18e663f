// Lists the process's images again and again (as CallerLine does the first
// time a typed property's fault is traced) while another thread opens and
// closes a WAL database, whose shared-memory file SQLite maps and unmaps.
// Exits 0 after the time given (1.5 s by default); without FileMappings
// holding the mappings still, a capture meets an unmapping and the process
// stops with a bad pointer dereference within milliseconds.
// FileMappingsTests (ProbesTests) runs it.
import Foundation
import ObjectGraph
@_spi(Check) import Probes
import Synchronization

final class Stop: Sendable {
    let requested = Atomic<Bool>(false)
    let failure = Mutex<String?>(nil)
}

func check(seconds: Double) -> Int32 {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-mappings-\(UUID().uuidString)")
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
        FileHandle.standardError.write(Data("FileMappingsCheck: cannot make \(directory.path): \(error)\n".utf8))
        return 2
    }
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("check.sqlite").path
    let stop = Stop()
    let closer = Thread {
        var opened = 0
        while !stop.requested.load(ordering: .relaxed) {
            do {
                _ = try Connection(.file(path))
                opened += 1
            } catch {
                stop.failure.withLock { $0 = "opening \(path): \(error)" }
                return
            }
        }
        stop.failure.withLock { if opened == 0 { $0 = "no connection was opened" } }
    }
    closer.start()
    var captures = 0
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        _ = CallerLine.captureImages()
        captures += 1
    }
    stop.requested.store(true, ordering: .relaxed)
    while !closer.isFinished { usleep(1_000) }
    if let failure = stop.failure.withLock({ $0 }) {
        FileHandle.standardError.write(Data("FileMappingsCheck: \(failure)\n".utf8))
        return 1
    }
    print("\(captures) captures while connections opened and closed")
    return 0
}

let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 1.5 : 1.5
exit(check(seconds: seconds))
