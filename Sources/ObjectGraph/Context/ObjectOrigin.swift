import Probes

/// Where an object came from, kept in the object for its faults' events
/// (``FaultOrigin``): a path of this context's ``OriginPaths`` (the fetch
/// and the key path from its objects) and the fetch's execution. Objects
/// reached through relationships inherit their source's execution, so that
/// everything loaded for one fetch's objects counts as that fetch's.
struct ObjectOrigin: Equatable {
    /// A path of the context's ``OriginPaths``; 0 for none.
    var path: UInt32
    /// The fetch's execution number (``Instrumentation/nextFetchExecution()``), truncated.
    var execution: UInt32

    /// No fetch produced the object (inserted, made from an ID by hand).
    static let none = ObjectOrigin(path: 0, execution: 0)
}

/// The fetches and key paths objects of one context came from, numbered:
/// an object holds a number (``ObjectOrigin/path``) rather than strings,
/// and the strings are looked up only for a fault that goes to the
/// database. There are as many paths as the program has fetch call sites
/// times the key paths it walks from them (at most ``maximumDepth``
/// relationships deep), so the table stays small.
struct OriginPaths {
    struct Path {
        let fetchEntity: String
        let fetchSite: CallSite
        let keyPath: String
        let depth: Int
    }

    /// Deeper key paths get no origin (a walk of the graph by hand).
    static let maximumDepth = 4

    private var paths: [Path] = [Path(fetchEntity: "", fetchSite: .unknown, keyPath: "", depth: 0)]
    private var roots: [RootKey: UInt32] = [:]
    private var children: [ChildKey: UInt32] = [:]

    private struct RootKey: Hashable {
        let entity: ObjectIdentifier
        let site: CallSite
    }

    /// A path ends on objects of one entity, so a relationship's index
    /// among that entity's relationships names it.
    private struct ChildKey: Hashable {
        let parent: UInt32
        let relationship: Int
    }

    /// The path of a fetch's own objects.
    mutating func root(_ entity: EntityDescription, site: CallSite) -> UInt32 {
        let key = RootKey(entity: ObjectIdentifier(entity), site: site)
        if let existing = roots[key] { return existing }
        let number = UInt32(paths.count)
        paths.append(Path(fetchEntity: entity.name, fetchSite: site, keyPath: "", depth: 0))
        roots[key] = number
        return number
    }

    /// The path of the objects a relationship leads to from objects at
    /// `parent`; 0 when `parent` is 0 or the path would be too deep.
    mutating func child(of parent: UInt32, _ relationship: RelationshipDescription) -> UInt32 {
        guard parent != 0 else { return 0 }
        let key = ChildKey(parent: parent, relationship: relationship.index)
        if let existing = children[key] { return existing }
        let source = paths[Int(parent)]
        guard source.depth < Self.maximumDepth else { return 0 }
        let number = UInt32(paths.count)
        paths.append(Path(
            fetchEntity: source.fetchEntity, fetchSite: source.fetchSite,
            keyPath: source.keyPath.isEmpty ? relationship.name : source.keyPath + "." + relationship.name, depth: source.depth + 1))
        children[key] = number
        return number
    }

    /// The entity and call site of the fetch of `path`.
    func fetchSite(of path: UInt32) -> FetchUsage.Site {
        let path = paths[Int(path)]
        return FetchUsage.Site(entity: path.fetchEntity, callSite: path.fetchSite, keyPath: path.keyPath)
    }

    /// The origin of an object, as events carry it; nil for none.
    func faultOrigin(_ origin: ObjectOrigin) -> FaultOrigin? {
        guard origin.path != 0 else { return nil }
        let path = paths[Int(origin.path)]
        return FaultOrigin(fetchEntity: path.fetchEntity, fetchSite: path.fetchSite, keyPath: path.keyPath, execution: UInt64(origin.execution))
    }
}

extension ObjectContext {
    /// Runs `body` with the objects it registers coming from `origin`.
    @inline(__always)
    func registering<T, E: Error>(from origin: ObjectOrigin, _ body: () throws(E) -> T) throws(E) -> T {
        let saved = registrationOrigin
        registrationOrigin = origin
        defer { registrationOrigin = saved }
        return try body()
    }

    /// The origin of the objects of one run of a fetch of `entity` at the
    /// current call site; none when the store has no sink.
    func fetchOrigin(_ entity: EntityDescription) -> ObjectOrigin {
        guard instrumentation.tracksOrigins else { return .none }
        return ObjectOrigin(
            path: originPaths.root(entity, site: currentCallSite), execution: UInt32(truncatingIfNeeded: instrumentation.nextFetchExecution()))
    }

    /// The origin of the objects `relationship` leads to from objects at `origin`.
    func origin(through relationship: RelationshipDescription, from origin: ObjectOrigin) -> ObjectOrigin {
        guard origin.path != 0 else { return .none }
        let path = originPaths.child(of: origin.path, relationship)
        return path == 0 ? .none : ObjectOrigin(path: path, execution: origin.execution)
    }
}
