/// A context save that reached the store (failed ones too).
public struct SaveEvent: Sendable {
    public var start: UInt64
    public var durationNanoseconds: UInt64
    public var thread: Int32
    public var context: String
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    public var success: Bool
    /// The error's description when the save failed, "" otherwise.
    public var error: String
    public var callSite: CallSite

    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, inserted: Int, updated: Int,
        deleted: Int, success: Bool, error: String, callSite: CallSite
    ) {
        self.start = start
        self.durationNanoseconds = durationNanoseconds
        self.thread = thread
        self.context = context
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.success = success
        self.error = error
        self.callSite = callSite
    }
}

/// A batch update, insert or delete executed on the store.
public struct BatchRequestEvent: Sendable {
    public var start: UInt64
    public var durationNanoseconds: UInt64
    public var thread: Int32
    /// `update`, `insert` or `delete`.
    public var kind: String
    public var entity: String
    public var rowsAffected: Int
    public var callSite: CallSite

    public init(start: UInt64, durationNanoseconds: UInt64, thread: Int32, kind: String, entity: String, rowsAffected: Int, callSite: CallSite) {
        self.start = start
        self.durationNanoseconds = durationNanoseconds
        self.thread = thread
        self.kind = kind
        self.entity = entity
        self.rowsAffected = rowsAffected
        self.callSite = callSite
    }
}

/// A change of a context's state: a reset, a refresh, a merge, and how many
/// objects are registered in all contexts of the store afterwards.
public struct ContextEvent: Sendable {
    public var start: UInt64
    public var thread: Int32
    public var context: String
    /// `reset`, `refresh`, `merge`, `save`, `prefetch-usage` (when a context
    /// that prefetched is reset or released).
    public var kind: String
    /// Objects registered in all contexts of the store.
    public var objectsRegistered: Int
    /// The most objects registered at once since the store opened (or the
    /// peak was last reset).
    public var objectsRegisteredPeak: Int
    /// For `prefetch-usage`: `Entity.relationship prefetched=N read=M at
    /// File.swift:line`, how many objects had the relationship prefetched,
    /// how many of those then read it, and where the prefetch was asked for.
    /// Empty for the other kinds.
    public var detail: String

    public init(
        start: UInt64, thread: Int32, context: String, kind: String, objectsRegistered: Int, objectsRegisteredPeak: Int,
        detail: String = ""
    ) {
        self.start = start
        self.thread = thread
        self.context = context
        self.kind = kind
        self.objectsRegistered = objectsRegistered
        self.objectsRegisteredPeak = objectsRegisteredPeak
        self.detail = detail
    }
}

/// A scenario's structure: begin and end of a scenario, a step, an iteration.
public struct ScenarioEvent: Sendable {
    public var start: UInt64
    public var thread: Int32
    public var scenario: String
    /// `begin`, `end`, `step`, `iteration-begin`, `iteration-end`.
    public var phase: String
    /// The step's name, "" otherwise.
    public var step: String
    /// The iteration number (warm-up iterations are negative), 0 otherwise.
    public var iteration: Int

    public init(start: UInt64, thread: Int32, scenario: String, phase: String, step: String, iteration: Int) {
        self.start = start
        self.thread = thread
        self.scenario = scenario
        self.phase = phase
        self.step = step
        self.iteration = iteration
    }
}
