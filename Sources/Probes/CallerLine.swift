import CCallerFrames
import Foundation
import Runtime
import Synchronization

/// The line of an application's code that called into a library, found
/// from the stack: where a fault fired by a typed property (`post.title`,
/// which has no `#line` of its own to pass on) was read.
///
/// Finding it is cheap, naming it is not, so the two are apart:
/// - ``find(outside:skippingOneAccessor:fallback:)`` walks the frame
///   pointers (about a nanosecond a frame) and looks the chain of return
///   addresses up in a table. A chain seen for the first time has its
///   stack captured (Swift's `Runtime` module, tens of microseconds) and
///   gets a *pending* call site, which events carry like any other.
/// - ``resolve(_:)`` names a pending call site from debug information,
///   once per chain: symbolicating costs about a tenth of a second, so it
///   happens where a call site is shown (a report, a log line, a trace
///   field: ``CallSite/description``, ``CallSite/resolved``), not in the
///   middle of a measured iteration.
///
/// A chain without debug information resolves to the fallback given with
/// it, as does every chain under valgrind (see ``images``).
public enum CallerLine {
    /// How many return addresses make a chain's key.
    static let keyFrames = 16
    /// Chains remembered; the table starts again when it is full.
    static let tableLimit = 4_096
    /// The `file` of a pending call site, whose `line` numbers its chain.
    static let pendingFile = "\u{1}pending"

    private struct Chain {
        var backtrace: Backtrace?
        var modules: [String]
        var skippingOneAccessor: Bool
        var fallback: CallSite
        var resolved: CallSite?
    }

    private struct Table {
        var byKey: [UInt64: Int] = [:]
        var chains: [Chain] = []
        /// Bumped when the table starts again, so an old pending site is
        /// not taken for a new chain.
        var generation = 0
    }

    private static let table = Mutex(Table())
    /// The process's images, for capturing and naming stacks; nil under
    /// valgrind, whose own mappings the runtime's image reader cannot read
    /// (it stops the program): there, every chain names its fallback.
    /// Captured while the engine closes no connection (``FileMappings``).
    private static let images: ImageMap? = runsUnderValgrind ? nil : captureImages()

    /// The process's images now, listed while Faultline unmaps no file.
    /// Not cached: the image check (Tests/FileMappingsCheck) captures
    /// again and again while connections close.
    @_spi(Check) public static func captureImages() -> ImageMap {
        FileMappings.holdingStill { ImageMap.capture() }
    }

    /// Whether the process runs under valgrind (its preloaded libraries).
    static let runsUnderValgrind = ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("vgpreload") == true

    /// The line after the frames of the modules whose mangled names start
    /// with one of `modules` (`$s11ObjectGraph`); with `skippingOneAccessor`
    /// a property getter right after them (a typed property) is passed
    /// over too, so that its caller's line is the one named. A pending call
    /// site the first time a chain is seen; `fallback` where the frames
    /// name no line.
    public static func find(outside modules: [String], skippingOneAccessor: Bool, fallback: CallSite) -> CallSite {
        let key = withUnsafeTemporaryAllocation(of: UInt.self, capacity: keyFrames) { buffer -> UInt64 in
            let count = Int(faultline_caller_frames(buffer.baseAddress!, Int32(keyFrames)))
            var hash = UInt64(count)
            for index in 0..<count { hash = UInt64(bitPattern: Int64(KeyHash.mix(hash ^ UInt64(buffer[index]), seed: index))) }
            return hash
        }
        if let known = table.withLock({ table in table.byKey[key].map { pending($0, table) } }) { return known }
        let backtrace = images.flatMap { try? Backtrace.capture(algorithm: .fast, limit: 48, images: $0) }
        return table.withLock { table in
            if table.chains.count >= tableLimit {
                table.byKey.removeAll(keepingCapacity: true)
                table.chains.removeAll(keepingCapacity: true)
                table.generation += 1
            }
            table.chains.append(Chain(backtrace: backtrace, modules: modules, skippingOneAccessor: skippingOneAccessor, fallback: fallback))
            table.byKey[key] = table.chains.count - 1
            return pending(table.chains.count - 1, table)
        }
    }

    /// A pending site for chain `index`: its number with the table's generation.
    private static func pending(_ index: Int, _ table: Table) -> CallSite {
        CallSite(file: pendingFile, line: table.generation << 32 | index)
    }

    /// The named call site of a pending one (symbolicated once per chain);
    /// any other call site as it is.
    public static func resolve(_ site: CallSite) -> CallSite {
        guard site.file == pendingFile else { return site }
        let (generation, index) = (site.line >> 32, site.line & 0xFFFF_FFFF)
        let chain: Chain? = table.withLock { table in
            generation == table.generation && index < table.chains.count ? table.chains[index] : nil
        }
        guard let chain else { return .unknown }
        if let resolved = chain.resolved { return resolved }
        let named = chain.backtrace.flatMap { name($0, outside: chain.modules, skippingOneAccessor: chain.skippingOneAccessor) }
            ?? chain.fallback
        table.withLock { table in
            if generation == table.generation, index < table.chains.count { table.chains[index].resolved = named }
        }
        return named
    }

    /// The line, from the symbolicated stack.
    private static func name(_ backtrace: Backtrace, outside modules: [String], skippingOneAccessor: Bool) -> CallSite? {
        guard let images, let symbolicated = backtrace.symbolicated(with: images) else { return nil }
        var inside = false
        var accessorSkipped = !skippingOneAccessor
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol else { continue }
            let raw = symbol.rawName
            if raw.hasPrefix("$s6Probes") || raw.hasPrefix("$s7Runtime") { continue }
            if modules.contains(where: { raw.hasPrefix($0) }) {
                inside = true
                continue
            }
            guard inside, let location = symbol.sourceLocation, location.line > 0 else { continue }
            if !accessorSkipped {
                accessorSkipped = true
                if isAccessor(symbol.name) { continue }
            }
            let file = location.path.split(separator: "/").last.map(String.init) ?? location.path
            return CallSite(file: module(of: raw).map { "\($0)/\(file)" } ?? file, line: Int(location.line))
        }
        return nil
    }

    /// Whether a demangled name is a property's getter (or read accessor).
    private static func isAccessor(_ name: String) -> Bool {
        name.contains(".getter") || name.contains(".read") || name.contains(".unsafeAddressor")
    }

    /// The module whose code a mangled Swift name is, as `#fileID` names
    /// files: an extension's module (`(extension in BuiltInScenarios):…`),
    /// else the module of the innermost named context (`closure #1 in
    /// BlogTests.BlogQueryTests.test()` → `BlogTests`).
    static func module(of mangled: String) -> String? {
        guard let demangled = demangle(mangled) else { return nil }
        if let range = demangled.range(of: "(extension in ") {
            let rest = demangled[range.upperBound...]
            return rest.firstIndex(of: ")").map { String(rest[..<$0]) }
        }
        // The first qualified name (`Module.Type.member`) of the innermost
        // context, past words such as `static` and `variable initialization
        // expression of`.
        let context = demangled.range(of: " in ", options: .backwards).map { demangled[$0.upperBound...] } ?? demangled[...]
        for word in context.split(separator: " ") {
            let name = word.drop { $0 == "(" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, word.drop(while: { $0 == "(" }).dropFirst(name.count).first == "." { return String(name) }
        }
        return nil
    }

    /// The runtime's full demangling of a Swift symbol.
    static func demangle(_ mangled: String) -> String? {
        mangled.withCString { name in
            guard let demangled = swiftDemangle(name, strlen(name), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }
}

@_silgen_name("swift_demangle")
private func swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
