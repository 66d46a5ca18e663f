// Lists the process's images again and again (as CallerLine does the first
// time a typed property's fault is traced) while another thread maps and
// unmaps files: by default it opens and closes a WAL database, whose
// shared-memory file SQLite maps and unmaps; with `provider PATH` it loads
// the tracepoint provider at PATH through LTTngSink.load, a provider of
// another version, which is opened and closed again at each load.
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

/// Opens and closes a WAL database until asked to stop.
func openAndCloseDatabases(at path: String, until stop: Stop) {
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

/// Loads a provider that is refused (and so closed again) until asked to stop.
func loadRefusedProviders(at path: String, until stop: Stop) {
    var refused = 0
    while !stop.requested.load(ordering: .relaxed) {
        switch LTTngSink.load(providerPath: path) {
        case .success:
            stop.failure.withLock { $0 = "the provider \(path) loaded: the check needs one of another version" }
            return
        case .failure(let reason):
            guard reason.reason.contains("defines the tracepoints of version") else {
                stop.failure.withLock { $0 = "the provider \(path) was refused for another reason: \(reason.reason)" }
                return
            }
            refused += 1
        }
    }
    stop.failure.withLock { if refused == 0 { $0 = "no provider was loaded" } }
}

func check(seconds: Double, provider: String?) -> Int32 {
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
        if let provider {
            loadRefusedProviders(at: provider, until: stop)
        } else {
            openAndCloseDatabases(at: path, until: stop)
        }
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
    print("\(captures) captures while \(provider == nil ? "connections opened and closed" : "providers loaded and closed")")
    return 0
}

var arguments = Array(CommandLine.arguments.dropFirst())
var provider: String?
if arguments.first == "provider" {
    guard arguments.count >= 2 else {
        FileHandle.standardError.write(Data("usage: FileMappingsCheck [provider PATH] [SECONDS]\n".utf8))
        exit(2)
    }
    provider = arguments[1]
    arguments.removeFirst(2)
}
let seconds = arguments.first.flatMap(Double.init) ?? 1.5
exit(check(seconds: seconds, provider: provider))
