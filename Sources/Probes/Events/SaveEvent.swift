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

/// A scenario's structure: begin and end of a scenario, a step, an iteration.
public struct ScenarioEvent: Sendable {
    public var start: UInt64
    public var thread: Int32
    public var scenario: String
    public var phase: ScenarioPhase
    /// The step's name, "" otherwise.
    public var step: String
    /// The iteration number (warm-up iterations are negative), 0 otherwise.
    public var iteration: Int

    public init(start: UInt64, thread: Int32, scenario: String, phase: ScenarioPhase, step: String, iteration: Int) {
        self.start = start
        self.thread = thread
        self.scenario = scenario
        self.phase = phase
        self.step = step
        self.iteration = iteration
    }
}

/// Where a scenario is: the raw values are the `phase` field of the
/// `faultline:scenario` tracepoint.
public enum ScenarioPhase: String, Sendable, Codable {
    case begin
    case end
    case step
    case iterationBegin = "iteration-begin"
    case iterationEnd = "iteration-end"
}
