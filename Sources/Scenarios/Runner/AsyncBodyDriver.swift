import Foundation

/// Runs an async scenario body to completion from the synchronous runner,
/// on the calling thread.
///
/// The body runs as a task whose executor preference
/// (``Swift/TaskExecutor``) is this driver: every job of the task (its
/// start, and each resumption after an `await`: a context's `perform`
/// coming back from the context's queue) is handed to the driver, and the
/// thread that called ``run(_:)`` runs them one after another until the
/// task ends. So:
/// - no thread of Swift's cooperative pool is blocked waiting for the
///   body, and the body needs none to make progress: the runner called
///   from a pool thread (a test) cannot starve the pool into a deadlock,
///   and a context's work runs on its own dispatch queue, as always;
/// - the iteration, which is not `Sendable`, is used by one thread at a
///   time: the caller hands it to the task and touches it again only once
///   the task has ended (the lock's release and acquisition order them);
/// - the time measured is the body's, with no hop to another thread to
///   start it or to come back.
///
/// Child tasks (`async let`, task groups) inherit the preference and run
/// on the calling thread too, one job at a time. What the body awaits on
/// another executor (an actor of the app's) runs there; work that must
/// run on the main actor cannot while the runner holds the main thread
/// (perf-run's): such a body is run from another thread.
final class AsyncBodyDriver: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` as a task preferring this driver, running its jobs on
    /// the calling thread until it ends; its error is rethrown.
    static func run(_ body: @escaping @Sendable () async throws -> Void) throws {
        let driver = AsyncBodyDriver()
        let outcome = Outcome()
        Task(executorPreference: driver) {
            do {
                try await body()
            } catch {
                outcome.error = error
            }
            driver.finish()
        }
        driver.drive()
        if let error = outcome.error { throw error }
    }

    /// The task's error, written by the task before it finishes and read
    /// by the caller after: ordered by the driver's lock.
    private final class Outcome: @unchecked Sendable {
        var error: (any Error)?
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs the jobs as they come until the task has finished and no job is left.
    private func drive() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
