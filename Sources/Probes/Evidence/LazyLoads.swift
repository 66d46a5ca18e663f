/// The objects of one fetch reached through one key path: where an N+1
/// shows. Lazy loads are grouped by it (``InsightEvidence/lazyLoads``).
public struct LazyLoadPath: Sendable, Hashable, Codable {
    /// The entity the fetch asked for.
    public var fetchEntity: String
    /// Relationships from the fetch's objects to the loaded objects; ""
    /// for the fetch's own objects.
    public var keyPath: String
    /// Where the fetch was asked for (in a log without call sites, the
    /// log's file and the line of the fetch).
    public var fetchSite: CallSite

    /// The objects of the fetch of `fetchEntity` at `fetchSite`, reached
    /// through `keyPath` ("" for the fetch's own objects).
    public init(fetchEntity: String, keyPath: String, fetchSite: CallSite) {
        self.fetchEntity = fetchEntity
        self.keyPath = keyPath
        self.fetchSite = fetchSite
    }

    /// The path of an origin.
    public init(_ origin: FaultOrigin) {
        self.init(fetchEntity: origin.fetchEntity, keyPath: origin.keyPath, fetchSite: origin.fetchSite)
    }

    /// The key path a source could not know (a Core Data log names no
    /// relationship for a to-one fault): `(Author)`, the relationships
    /// from the fetch's entity that lead to `destination`.
    public static func unknownKeyPath(to destination: String) -> String { "(\(destination))" }

    /// Whether ``keyPath`` names relationships (not ``unknownKeyPath(to:)``).
    public var isKeyPathKnown: Bool { !keyPath.hasPrefix("(") }
}

/// The lazy loads (SQL round trips of faults and relationship faults) of
/// the objects at one ``LazyLoadPath``, and how they fell on the fetch's
/// executions: an N+1 is several lazy loads of one kind (object faults, or
/// relationship faults) for the objects of one execution, a query each.
public struct LazyLoads: Sendable, Equatable, Codable {
    /// Object faults that read a row the row cache did not hold.
    public var objectFaults = 0
    /// Relationship faults that ran a query.
    public var relationshipFaults = 0
    /// Object faults that read again a row the row cache held but found
    /// stale (a staleness interval): a prefetch would not save them. Not
    /// counted in ``objectFaultsPerExecution``.
    public var staleReReads = 0
    /// Time the lazy loads took, in nanoseconds.
    public var nanoseconds: UInt64 = 0
    /// The entity the loads ended on: the faulted objects', or the
    /// relationship's destination.
    public var destinationEntity: String
    /// The relationship the last step of the key path names, when the
    /// loads were relationship faults (`comments`); "" otherwise.
    public var relationship = ""
    /// Where the first load was read (the line that read it, or the
    /// innermost call site the engine knew).
    public var firstRead: CallSite
    /// How many executions of the fetch had each number of object faults:
    /// `[faults: executions]` (settled by ``InsightEvidence/lazyLoads``).
    public var objectFaultsPerExecution: [Int: Int] = [:]
    /// The same for relationship faults.
    public var relationshipFaultsPerExecution: [Int: Int] = [:]

    /// No loads yet, of objects of `destinationEntity`, the first read at
    /// `firstRead`.
    public init(destinationEntity: String, firstRead: CallSite) {
        self.destinationEntity = destinationEntity
        self.firstRead = firstRead
    }

    /// The loads of the executions that had at least `minimum` of one kind
    /// each (an N+1 where `minimum` is 2), and those executions.
    public func loads(inExecutionsWithAtLeast minimum: Int) -> (loads: Int, executions: Int) {
        let objects = Self.loads(objectFaultsPerExecution, atLeast: minimum)
        let relationships = Self.loads(relationshipFaultsPerExecution, atLeast: minimum)
        return (objects.loads.addingSaturated(relationships.loads), max(objects.executions, relationships.executions))
    }

    /// The relationship faults of the executions that had at least `minimum`.
    public func relationshipFaults(inExecutionsWithAtLeast minimum: Int) -> Int {
        Self.loads(relationshipFaultsPerExecution, atLeast: minimum).loads
    }

    private static func loads(_ histogram: [Int: Int], atLeast minimum: Int) -> (loads: Int, executions: Int) {
        var loads = 0
        var executions = 0
        for (count, times) in histogram where count >= minimum {
            loads = loads.addingSaturated(count.multipliedSaturated(by: times))
            executions = executions.addingSaturated(times)
        }
        return (loads, executions)
    }
}

/// Counting the lazy loads of one path execution by execution, in place.
struct LazyLoadTally: Sendable {
    var loads: LazyLoads
    /// Loads per execution not yet settled into the histograms.
    private var openObjects = OpenExecutions()
    private var openRelationships = OpenExecutions()
    /// At most this many executions are kept open per kind; the oldest half
    /// is settled when there are more (a long run of one-object fetches).
    static let openLimit = 4_096

    init(destinationEntity: String, firstRead: CallSite) {
        loads = LazyLoads(destinationEntity: destinationEntity, firstRead: firstRead)
    }

    /// Adds a lazy load of `execution`; `update` counts it and says
    /// whether it counts toward the N+1 pattern as a relationship fault
    /// (true) or an object fault (false), or not at all (nil).
    mutating func add(
        destination: String, relationship: String, nanoseconds: UInt64, execution: UInt64, _ update: (inout LazyLoads) -> Bool?
    ) {
        // A log that names no relationship's destination (Core Data's:
        // `(comments)`) learns it from the destinations' faults. The first
        // byte first: `hasPrefix` compares characters.
        if loads.destinationEntity.utf8.first == UInt8(ascii: "("), Self.startsWithParenthesis(loads.destinationEntity),
           !Self.startsWithParenthesis(destination)
        {
            loads.destinationEntity = destination
        }
        if !relationship.isEmpty { loads.relationship = relationship }
        loads.nanoseconds &+= nanoseconds
        if let isRelationship = update(&loads) { count(execution: execution, relationship: isRelationship) }
    }

    /// `text.hasPrefix("(")`: over its first bytes when they settle it (a
    /// first byte other than `(`; `(` then an ASCII byte or nothing, which
    /// no scalar extends into one character with it).
    static func startsWithParenthesis(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard let first = bytes.next() else { return false }
        guard first == UInt8(ascii: "(") else { return false }
        guard let second = bytes.next() else { return true }
        return second < 0x80 || text.hasPrefix("(")
    }

    /// Counts one load of `execution` toward the N+1 pattern.
    mutating func count(execution: UInt64, relationship: Bool) {
        if relationship {
            openRelationships.count(execution)
            if openRelationships.loads.count > Self.openLimit {
                openRelationships.settle(into: &loads.relationshipFaultsPerExecution, keepingNewest: Self.openLimit / 2)
            }
        } else {
            openObjects.count(execution)
            if openObjects.loads.count > Self.openLimit {
                openObjects.settle(into: &loads.objectFaultsPerExecution, keepingNewest: Self.openLimit / 2)
            }
        }
    }

    /// The loads with every execution settled.
    var settled: LazyLoads {
        var result = loads
        for count in openObjects.loads.values { result.objectFaultsPerExecution[count, default: 0] += 1 }
        for count in openRelationships.loads.values { result.relationshipFaultsPerExecution[count, default: 0] += 1 }
        return result
    }
}

/// The loads of the executions not yet settled, by execution number
/// (hashed by ``KeyHash``: one lookup per lazy load), and those numbers in
/// the order they came: executions are numbered as they run, so they
/// mostly come in increasing order, and then the oldest are the first
/// ones, found without sorting.
struct OpenExecutions: Sendable {
    var loads: [Execution: Int] = [:]
    /// The open executions in the order they came (each once).
    private var order: [UInt64] = []
    /// Whether `order` is increasing.
    private var increasing = true

    struct Execution: Hashable, Sendable {
        let number: UInt64

        func hash(into hasher: inout Hasher) {
            hasher.combine(number)
        }

        func _rawHashValue(seed: Int) -> Int {
            KeyHash.mix(number, seed: seed)
        }
    }

    /// Counts one load of `execution`.
    mutating func count(_ execution: UInt64) {
        let key = Execution(number: execution)
        if let index = loads.index(forKey: key) {
            loads.values[index] += 1
            return
        }
        loads[key] = 1
        if let last = order.last, execution < last { increasing = false }
        order.append(execution)
    }

    /// Settles the open executions into `histogram`, keeping the `kept`
    /// with the highest numbers open.
    mutating func settle(into histogram: inout [Int: Int], keepingNewest kept: Int) {
        if !increasing {
            order.sort()
            increasing = true
        }
        let settled = order.count - kept
        guard settled > 0 else { return }
        for execution in order[..<settled] {
            histogram[loads.removeValue(forKey: Execution(number: execution))!, default: 0] += 1
        }
        order.removeFirst(settled)
    }
}
