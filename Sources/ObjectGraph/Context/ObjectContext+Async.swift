@_spi(FastPath) import Probes

/// `perform` for async code: the body runs on the context's queue, as the
/// synchronous `perform`'s does, while the calling task is suspended
/// instead of blocking its thread. The confinement rules are the same:
/// the context and its objects are used inside the body only, and what
/// comes out is `Sendable` (object IDs, values), never an object.
///
/// ```swift
/// let ids = try await context.perform {
///     try context.fetch(FetchRequest<Post>(predicate: Key("likes") > 10)).map(\.objectID)
/// }
/// ```
extension ObjectContext {
    /// Runs `body` on the context's queue and resumes with its result; runs
    /// it at once when already on that queue.
    public func perform<T: Sendable>(
        file: String = #fileID, line: Int = #line, _ body: @escaping () throws -> T
    ) async throws -> T {
        let site = CallSite(file: file, line: line)
        if isOnQueue { return try withCallSite(site, body) }
        // The queue is the context's confinement: the body and the context
        // are only touched there, as `perform` touches them inside
        // `queue.sync`; the compiler cannot see that through `async`.
        nonisolated(unsafe) let context = self
        nonisolated(unsafe) let body = body
        // What a sink needs from the calling task (a tracer's current span)
        // is bound again on the queue, around the body and the flush.
        let carrier = instrumentation.carryTaskContext()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            context.queue.async {
                func run() {
                    let result = Result { try context.withCallSite(site, body) }
                    // The sinks send on what they held back before the
                    // caller resumes: a measurement read right after the
                    // await sees every event, as after the synchronous form.
                    context.instrumentation.flush()
                    continuation.resume(with: result)
                }
                if let carrier { carrier(run) } else { run() }
            }
        }
    }
}
