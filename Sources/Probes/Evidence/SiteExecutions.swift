/// Executions of one statement shape from one call site, whatever their
/// bound values: the query-in-a-loop pattern, found by the statement's
/// shape and where it ran, as Prosopite and Sentry find an N+1 (a fetch by
/// key per element, an `object(with:)` per ID), beside the N+1 found by
/// where an object came from (``LazyLoads``).
public struct SiteExecutions: Sendable, Equatable {
    /// The statement's shape (values as `?`).
    public var shape: String
    /// The first execution's purpose (`fetch Recipe`, `fault Category`).
    public var purpose: String
    /// Where it ran (for a log without call sites, ``CallSite/unknown``).
    public var callSite: CallSite
    /// The table's entity, when the engine knew it (``StatementFacts``).
    public var entity: String?
    /// Whether it reads (``InsightEvidence/isRead(_:)``).
    public var isRead: Bool
    /// How many times it ran from there.
    public var count = 0
    /// Of those, the executions a lazy load of an object whose origin is
    /// known ran (a fault or relationship fault of an object a fetch
    /// returned): the N+1 rule's, which knows the key path to prefetch.
    public var explained = 0
    /// The longest run of executions not explained, with at most
    /// ``SiteTallies/runGap`` other statements between two of them: a loop
    /// in a log that names no call site.
    public var longestRun = 0
    /// The executions' time.
    public var nanoseconds: UInt64 = 0

    /// The executions no lazy load explains.
    public var unexplained: Int { count - explained }

    /// Where the run being counted stands: the statement number of the
    /// last execution, the run's length so far, and whether the longest
    /// run is this one.
    var lastNumber = 0
    var currentRun = 0
    var longestIsCurrent = false
}

/// Counts statements by shape and call site (``SiteExecutions``).
struct SiteTallies: Sendable {
    struct Key: Hashable, Sendable {
        /// The shape's interned number, or for a statement without one (a
        /// log's, one built by hand) a negative number of its text.
        let shape: Int
        let site: CallSite

        /// The shape and the line, mixed: no file name hashed per
        /// statement (equal keys have equal shapes and lines).
        func hash(into hasher: inout Hasher) {
            hasher.combine(shape)
            hasher.combine(site.line)
        }

        func _rawHashValue(seed: Int) -> Int {
            KeyHash.mix(UInt64(bitPattern: Int64(shape)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(site.line)), seed: seed)
        }
    }

    /// Statements of a loop body that may come between two executions of
    /// one statement in a run: a loop that reads a row and two of its
    /// relationships has two.
    static let runGap = 3

    /// The tallies, in the order first counted, and where each key's is.
    private(set) var entries: [SiteExecutions] = []
    private var slots: [Key: Int] = [:]
    /// The keys of the last statements and their slots: a loop runs one
    /// statement, or takes turns among a few.
    private var recent: [(key: Key, slot: Int)] = []
    private var nextRecent = 0
    /// Numbers for the shapes of statements without an interned one.
    private var shapeNumbers: [String: Int] = [:]
    /// Statements counted so far: the clock of runs.
    private var statements = 0
    /// The slot of the statement counted last, until a lazy load explains it.
    private var lastSlot: Int?

    /// The number of `shape` for a statement without an interned number.
    mutating func number(ofShape shape: String) -> Int {
        if let number = shapeNumbers[shape] { return number }
        let number = -1 - shapeNumbers.count
        shapeNumbers[shape] = number
        return number
    }

    /// The slot of `key`, if counted before. (The recent keys are compared
    /// in place, by index: a loop over the entries copied each one, its
    /// file's string retained and released.)
    func slot(of key: Key) -> Int? {
        for index in recent.indices
        where recent[index].key.shape == key.shape && recent[index].key.site.line == key.site.line
            && recent[index].key.site.file == key.site.file
        {
            return recent[index].slot
        }
        return slots[key]
    }

    /// Counts an execution of `key` if counted before; false otherwise.
    mutating func countIfKnown(_ key: Key, nanoseconds: UInt64) -> Bool {
        guard let slot = slot(of: key) else { return false }
        remember(key, slot)
        count(at: slot, nanoseconds: nanoseconds)
        return true
    }

    /// Counts an execution at `slot` (``slot(of:)``).
    mutating func count(at slot: Int, nanoseconds: UInt64) {
        statements += 1
        let number = statements
        lastSlot = slot
        entries[slot].count += 1
        entries[slot].nanoseconds &+= nanoseconds
        let gap = number - entries[slot].lastNumber
        entries[slot].currentRun = gap <= Self.runGap + 1 ? entries[slot].currentRun + 1 : 1
        entries[slot].lastNumber = number
        if entries[slot].currentRun > entries[slot].longestRun {
            entries[slot].longestRun = entries[slot].currentRun
            entries[slot].longestIsCurrent = true
        } else if entries[slot].currentRun == 1 {
            entries[slot].longestIsCurrent = false
        }
    }

    /// Counts an execution of a key seen for the first time, or again.
    mutating func count(_ key: Key, nanoseconds: UInt64, new: () -> SiteExecutions) {
        let place: Int
        if let found = slot(of: key) {
            place = found
        } else {
            place = entries.count
            entries.append(new())
            slots[key] = place
        }
        remember(key, place)
        count(at: place, nanoseconds: nanoseconds)
    }

    /// The statement counted last ran for a lazy load the N+1 rule sees:
    /// it is explained, and leaves its run.
    mutating func explainLast() {
        guard let slot = lastSlot else { return }
        lastSlot = nil
        entries[slot].explained += 1
        entries[slot].currentRun = max(0, entries[slot].currentRun - 1)
        if entries[slot].longestIsCurrent { entries[slot].longestRun = entries[slot].currentRun }
    }

    /// Names each tally's entity by `name`.
    mutating func renameEntities(_ name: (String) -> String) {
        for index in entries.indices {
            if let entity = entries[index].entity { entries[index].entity = name(entity) }
        }
    }

    /// Keeps `key` and its slot among the last four looked up (a slot
    /// already among them is left as it is).
    mutating func remember(_ key: Key, _ slot: Int) {
        for index in recent.indices where recent[index].slot == slot { return }
        if recent.count < 4 {
            recent.append((key, slot))
        } else {
            recent[nextRecent] = (key, slot)
            nextRecent = (nextRecent + 1) % 4
        }
    }
}
