/// A context save that reached the store (failed ones too).
public struct SaveEvent: Sendable {
    /// When the save began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// How long the save took, failed or not.
    public var durationNanoseconds: UInt64
    /// The Linux thread ID of the thread it ran on.
    public var thread: Int32
    /// The name of the context that saved.
    public var context: String
    /// Objects the save inserted.
    public var inserted: Int
    /// Objects the save updated.
    public var updated: Int
    /// Objects the save deleted.
    public var deleted: Int
    /// Whether the save was written; false means nothing was.
    public var success: Bool
    /// The error's description when the save failed, "" otherwise.
    public var error: String
    /// Where the save was asked for.
    public var callSite: CallSite

    /// A save event with these fields.
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
    /// When the request began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// How long the request took.
    public var durationNanoseconds: UInt64
    /// The Linux thread ID of the thread it ran on.
    public var thread: Int32
    /// `update`, `insert` or `delete`.
    public var kind: String
    /// The entity the request names.
    public var entity: String
    /// Rows of the entity (its subentities' included) inserted, updated or
    /// deleted.
    public var rowsAffected: Int
    /// Where the request was executed.
    public var callSite: CallSite

    /// A batch request event with these fields.
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
    /// When the phase began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// The Linux thread ID of the thread it happened on.
    public var thread: Int32
    /// The scenario's name.
    public var scenario: String
    /// Which point of the scenario this is.
    public var phase: ScenarioPhase
    /// The step's name, "" otherwise.
    public var step: String
    /// The iteration number (warm-up iterations are negative), 0 otherwise.
    public var iteration: Int

    /// A scenario event with these fields.
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
    /// The scenario begins.
    case begin
    /// The scenario ends.
    case end
    /// A step begins.
    case step
    /// An iteration begins.
    case iterationBegin = "iteration-begin"
    /// An iteration ends.
    case iterationEnd = "iteration-end"
}
