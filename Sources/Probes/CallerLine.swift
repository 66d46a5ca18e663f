import CCallerFrames
import Foundation
import Runtime
import Synchronization

/// The line of an application's code that called into a library, found
/// from the stack: where a fault fired by a typed property (`post.title`,
/// which has no `#line` of its own to pass on) was read.
///
/// Finding it is cheap, naming it is not, so the two are apart:
/// - ``find(outside:skippingOneAccessor:above:fallback:)`` walks the frame
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
    /// How many return addresses make a chain's key: from the library's
    /// entry point (``find(outside:skippingOneAccessor:above:fallback:)``'s
    /// mark) outward, room for the accessor, a key path's thunk and the
    /// runtime's projection of it (four frames) before the reader's own.
    static let keyFrames = 20
    /// The frames below a mark that a captured stack keeps: the library's
    /// outermost ones (the frames this file's calls add to the count sit
    /// innermost, so a few spare ones keep the library's entry point).
    static let innerFramesKept = 4
    /// The frames a stack captured from a mark keeps in all: the library's
    /// outermost few (``innerFramesKept``), the accessor, a key path's
    /// thunks, the standard library's frames that applied it, and the
    /// reader's. A to-many read through a key path in a debug build needs
    /// more than 16; 32 leaves room (a stack captured without a mark keeps
    /// 48).
    static let framesKeptFromMark = 32
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
    ///
    /// The chain's key is the return addresses from `mark` outward (a
    /// ``stackMark()`` taken where the library was entered; 0: from here):
    /// the library's own frames below it, the same for every reader, would
    /// otherwise fill the key, and two readers whose stacks differ only
    /// further out (a key path applied by `map` in two places) would share
    /// one line.
    public static func find(outside modules: [String], skippingOneAccessor: Bool, above mark: UInt = 0, fallback: CallSite) -> CallSite {
        let key = withUnsafeTemporaryAllocation(of: UInt.self, capacity: keyFrames) { buffer -> UInt64 in
            let count = Int(faultline_caller_frames_above(mark, buffer.baseAddress!, Int32(keyFrames)))
            var hash = UInt64(count)
            for index in 0..<count { hash = UInt64(bitPattern: Int64(KeyHash.mix(hash ^ UInt64(buffer[index]), seed: index))) }
            return hash
        }
        if let known = table.withLock({ table in table.byKey[key].map { pending($0, table) } }) { return known }
        let backtrace = images.flatMap { images in
            // Only the library's outermost frames below the mark (one of
            // them tells the reader's line where the library ends) and the
            // frames above it: naming costs a line-table search per frame
            // kept, and the library's inner frames, a dozen or more in a
            // debug build, are never the line.
            let inner = Int(faultline_caller_frames_below(mark))
            let offset = max(0, inner - innerFramesKept)
            return try? Backtrace.capture(algorithm: .fast, limit: offset == 0 ? 48 : framesKeptFromMark, offset: offset, images: images)
        }
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

    /// An address on the calling thread's stack, below the caller's frame
    /// record and above those of the calls it makes: a mark for
    /// ``find(outside:skippingOneAccessor:above:fallback:)``. One store of
    /// a stack address, cheap enough for every entry into the library.
    @inline(__always)
    public static func stackMark() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// A pending site for chain `index`: its number with the table's
    /// generation, from 1 (a line of 0 or less is no site's).
    private static func pending(_ index: Int, _ table: Table) -> CallSite {
        CallSite(file: pendingFile, line: (table.generation << 32 | index) + 1)
    }

    /// The named call site of a pending one (symbolicated once per chain);
    /// any other call site as it is.
    public static func resolve(_ site: CallSite) -> CallSite {
        guard site.file == pendingFile else { return site }
        let number = site.line - 1
        let (generation, index) = (number >> 32, number & 0xFFFF_FFFF)
        let chain: Chain? = table.withLock { table in
            generation == table.generation && index < table.chains.count ? table.chains[index] : nil
        }
        guard let chain else { return CallSite(noSiteBecause: .forgotten) }
        if let resolved = chain.resolved { return resolved }
        let named = chain.backtrace.flatMap { name($0, outside: chain.modules, skippingOneAccessor: chain.skippingOneAccessor) }
            ?? chain.fallback
        table.withLock { table in
            if generation == table.generation, index < table.chains.count { table.chains[index].resolved = named }
        }
        return named
    }

    /// The line, from the symbolicated stack: the first frame with a line
    /// after the engine's, past the accessor of the property read (with
    /// `skippingOneAccessor`) and the thunks of a key path it was read
    /// through (`\.title` applied by `map`, `post[keyPath: path]`), whose
    /// lines are the property's declaration, not the reader's.
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
            guard inside else { continue }
            if isKeyPathThunk(symbol.name) {
                accessorSkipped = true
                continue
            }
            guard let location = symbol.sourceLocation, location.line > 0 else { continue }
            if !accessorSkipped {
                accessorSkipped = true
                if isAccessor(symbol.name) { continue }
            }
            let file = location.path.split(separator: "/").last.map(String.init) ?? location.path
            return CallSite(file: module(of: raw, path: location.path).map { "\($0)/\(file)" } ?? file, line: Int(location.line))
        }
        return nil
    }

    /// Whether a demangled name is a property's getter (or read accessor).
    private static func isAccessor(_ name: String) -> Bool {
        name.contains(".getter") || name.contains(".read") || name.contains(".unsafeAddressor")
    }

    /// Whether a demangled name is the thunk through which a key path
    /// reads or writes a property (`key path getter for Blog.Post.title :
    /// Blog.Post`).
    static func isKeyPathThunk(_ name: String) -> Bool {
        name.hasPrefix("key path getter for ") || name.hasPrefix("key path setter for ")
    }

    /// The modules of the toolchain: a function of theirs at a line of the
    /// application is one of their generics with the application's code
    /// inlined into it.
    static let toolchainModules: Set<String> = [
        "Swift", "_Concurrency", "_StringProcessing", "_RegexParser", "Foundation", "FoundationEssentials",
        "FoundationInternationalization", "Dispatch", "Synchronization", "Observation", "Distributed", "Runtime", "XCTest",
        "Testing", "Glibc", "Musl", "Cxx", "CxxStdlib", "_Differentiation",
    ]

    /// The module of the line at `path` of the function `mangled`, as
    /// `#fileID` names it: the function's module (``module(of:)``), unless
    /// the function is a generic specialized for the caller or a
    /// toolchain module's (in an optimized build, `specialized
    /// Swift.Collection.map` holds the closure written at ToOneList.swift:42,
    /// inlined): then the package's target whose directory holds the file
    /// (`Sources/<target>/…`, `Tests/<target>/…`), as SwiftPM names
    /// modules; nil when neither tells.
    static func module(of mangled: String, path: String) -> String? {
        let demangled = demangle(mangled)
        let function = demangled.flatMap(module(demangled:))
        let specialized = demangled.map { $0.contains("specialization <") || $0.hasPrefix("specialized ") } ?? false
        if let function, !specialized, !toolchainModules.contains(function) { return function }
        if let target = target(of: path) { return target }
        return function.flatMap { toolchainModules.contains($0) ? nil : $0 }
    }

    /// The SwiftPM target whose directory holds a source file: the
    /// directory after the last `Sources` or `Tests` of its path, as a
    /// module's name (`blog-perf` → `blog_perf`); nil for another layout.
    static func target(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let root = parts.dropLast().lastIndex(where: { $0 == "Sources" || $0 == "Tests" }), root + 1 < parts.count - 1 else { return nil }
        let directory = parts[root + 1]
        var name = String(directory.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// The module whose code a mangled Swift name is, as `#fileID` names
    /// files: an extension's module (`(extension in BuiltInScenarios):…`),
    /// else the module of the innermost named context (`closure #1 in
    /// BlogTests.BlogQueryTests.test()` → `BlogTests`).
    static func module(of mangled: String) -> String? {
        demangle(mangled).flatMap(module(demangled:))
    }

    /// ``module(of:)`` of a demangled name.
    static func module(demangled: String) -> String? {
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
