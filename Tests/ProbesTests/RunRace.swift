import Foundation
import Probes
import Synchronization

/// The sink's side of a race on a run a context extends in place
/// (``RowCacheFaultRun``, ``RefreshRun``): another thread closes the run
/// under the sink's lock whenever it likes, as the sink does when it traces
/// another thread's event, and adds up what the closed runs held.
final class RunRace: @unchecked Sendable {
    /// The sink's lock: the closing thread's, and the test's when it opens
    /// a run.
    let lock = PlainLock()
    /// What the closed runs held (under `lock`).
    private(set) var count: UInt64 = 0
    private(set) var nanoseconds: UInt64 = 0
    private let closeRun: @Sendable () -> (count: UInt64, nanoseconds: UInt64)?
    private let done = Atomic<Bool>(false)
    private let closedByOther = Atomic<Int>(0)
    private let deadline = ProbeClock.kernelNow() + 30_000_000_000
    private var thread: Thread?

    /// Starts the closing thread; `close` closes the run and gives what it
    /// held, or nil when it was not open.
    init(close: @escaping @Sendable () -> (count: UInt64, nanoseconds: UInt64)?) {
        closeRun = close
        let thread = Thread { [unowned self] in
            while !done.load(ordering: .acquiring) {
                if lock.withLock({ closeLocked() }) { closedByOther.add(1, ordering: .relaxed) }
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Closes the run, adding what it held; whether it was open. With the
    /// lock held.
    @discardableResult
    func closeLocked() -> Bool {
        guard let closed = closeRun() else { return false }
        count += closed.count
        nanoseconds += closed.nanoseconds
        return true
    }

    /// Whether to add another item after `made`: until `least` are made
    /// and the other thread has closed runs midway ten times (however the
    /// machine schedules it; at most 30 s).
    func goesOn(made: Int, atLeast least: Int) -> Bool {
        made < least || (closedByOther.load(ordering: .relaxed) < 10 && ProbeClock.kernelNow() < deadline)
    }

    /// Stops the closing thread and closes the run a last time; returns the
    /// runs the other thread closed.
    func finish() -> Int {
        done.store(true, ordering: .releasing)
        while thread?.isFinished == false { usleep(1_000) }
        _ = lock.withLock { closeLocked() }
        return closedByOther.load(ordering: .relaxed)
    }
}
