import CProbeClock
import Foundation
import Probes
import TestSupport
import Testing

/// What the machine says: an x86-64 CPU with an invariant TSC (Linux's
/// `constant_tsc` and `nonstop_tsc` flags) and the kernel's clock source
/// `tsc`, and no `FAULTLINE_CLOCK=kernel`.
private var machineKeepsTimeWithTheCounter: Bool {
    #if arch(x86_64)
    if ProcessInfo.processInfo.environment["FAULTLINE_CLOCK"] == "kernel" { return false }
    let source = try? String(contentsOfFile: "/sys/devices/system/clocksource/clocksource0/current_clocksource", encoding: .utf8)
    guard source == "tsc\n", let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let flags = cpu.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
    else { return false }
    let set = Set(flags.split(separator: " "))
    return set.contains("constant_tsc") && set.contains("nonstop_tsc")
    #else
    return false
    #endif
}

/// The events' clock: the time-stamp counter exactly where the kernel keeps
/// time with it, readings on CLOCK_MONOTONIC's scale, durations that never
/// wrap.
@Suite struct ProbeClockTests {
    /// Readings of the probe clock for at least `nanoseconds`, so that the
    /// counter's scale is measured (its first millisecond reads the kernel).
    private func readFor(_ nanoseconds: UInt64) {
        let start = ProbeClock.kernelNow()
        while ProbeClock.kernelNow() - start < nanoseconds { _ = ProbeClock.now() }
        _ = ProbeClock.now()
    }

    @Test func theCounterIsUsedExactlyWhereTheKernelUsesIt() {
        readFor(3_000_000)
        #expect((ProbeClock.source == .timeStampCounter) == machineKeepsTimeWithTheCounter)
    }

    /// A reading is the kernel's monotonic time: the two clocks, read one
    /// after the other, agree within microseconds (the closest of a few
    /// pairs, as a thread can be preempted between two readings), every
    /// 10 ms for 2.5 s (after 2.1 s of readings that only watch the
    /// kernel's rate), across the counter's measurements at 1, 5, 25, 125
    /// and 625 ms and the first of every second's; a scale measured once
    /// would stray further the longer a program runs.
    ///
    /// The bound is 20 µs plus what the kernel's own rate left
    /// unpredictable: NTP slews CLOCK_MONOTONIC against the counter (a
    /// fresh VM's time daemon does, for minutes), and the clock runs at the
    /// average rate since its first reading between measurements up to a
    /// second apart. So each reading may also be off by twice the most that
    /// CLOCK_MONOTONIC strayed from that average rate, measured against
    /// CLOCK_MONOTONIC_RAW (the counter's own rate), over the two seconds
    /// before it. On a steady machine that adds nanoseconds.
    @Test func readingsStayOnTheKernelsScale() {
        readFor(3_000_000)
        struct Sample { var kernel: Int64; var slew: Int64; var error: Int64 }
        func raw() -> Int64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC_RAW, &now)
            return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        }
        let window: Int64 = 2_100_000_000
        let begin = Int64(ProbeClock.kernelNow())
        var samples: [Sample] = []
        while Int64(ProbeClock.kernelNow()) < begin + window + 2_500_000_000 {
            var closest = Sample(kernel: 0, slew: 0, error: .max)
            for _ in 0..<5 {
                let rawNow = raw()
                let kernel = Int64(ProbeClock.kernelNow())
                let probe = Int64(ProbeClock.now())
                if abs(probe - kernel) < closest.error {
                    closest = Sample(kernel: kernel, slew: kernel - rawNow, error: abs(probe - kernel))
                }
            }
            samples.append(closest)
            usleep(10_000)
        }
        var firstKernel: UInt64 = 0
        var firstRaw: UInt64 = 0
        let counting = faultline_clock_first_reading_for_testing(&firstKernel, &firstRaw) == 1
        var worstExcess: Int64 = .min
        var report = ""
        for (index, sample) in samples.enumerated() where sample.kernel >= begin + window {
            var unpredictable: Int64 = 0
            if counting {
                // The kernel's slew per nanosecond, on average since the first reading.
                let average = Double(sample.slew - (Int64(firstKernel) - Int64(firstRaw))) / Double(sample.kernel - Int64(firstKernel))
                for earlier in samples[..<index].reversed() where sample.kernel - earlier.kernel <= window {
                    let strayed = Double(sample.slew - earlier.slew) - average * Double(sample.kernel - earlier.kernel)
                    unpredictable = max(unpredictable, Int64(abs(strayed)))
                }
            }
            let excess = sample.error - (20_000 + 2 * unpredictable)
            if excess > worstExcess {
                worstExcess = excess
                report = "strayed \(sample.error) ns from CLOCK_MONOTONIC, which strayed \(unpredictable) ns from its average rate"
            }
        }
        #expect(samples.count > 200)
        #expect(worstExcess <= 0, "the probe clock \(report)")
    }

    /// A measurement of the counter's scale whose every pairing with the
    /// kernel's clock was preempted (as a loaded machine does to a thread
    /// between the two readings) publishes nothing: the clock keeps its
    /// parameters rather than steer toward a time that may be microseconds
    /// off. One whose first round of pairings was preempted tries again and
    /// publishes. With the kernel's clock there is nothing to measure.
    @Test func aMeasurementFromPreemptedPairingsIsNotUsed() {
        readFor(3_000_000)
        let counter = machineKeepsTimeWithTheCounter
        #expect(faultline_clock_measure_for_testing(1_000) == 0)
        #expect(faultline_clock_measure_for_testing(5) == (counter ? 1 : 0))
        #expect(faultline_clock_measure_for_testing(0) == (counter ? 1 : 0))
        readFor(1_000_000)
        let kernel = Int64(ProbeClock.kernelNow())
        #expect(abs(Int64(ProbeClock.now()) - kernel) < 1_000_000)
    }

    /// A 30 ms sleep measures the same by both clocks, within 1%.
    @Test func durationsAgreeWithTheKernel() {
        readFor(2_000_000)
        let kernelStart = ProbeClock.kernelNow()
        let start = ProbeClock.now()
        usleep(30_000)
        let probe = Double(ProbeClock.nanoseconds(since: start))
        let kernel = Double(ProbeClock.kernelNow() - kernelStart)
        #expect(abs(probe - kernel) / kernel < 0.01, "probe \(probe) ns, kernel \(kernel) ns")
    }

    /// A start later than now (another CPU's reading, a few nanoseconds
    /// ahead) gives 0, not a wrapped duration of centuries.
    @Test func aDurationNeverWraps() {
        let ahead = ProbeClock.now() + 1_000_000_000
        #expect(ProbeClock.nanoseconds(since: ahead) == 0)
        let start = ProbeClock.now()
        #expect(ProbeClock.nanoseconds(since: start) < 1_000_000_000)
    }
}

/// The clock's checks in a process of their own (ProbeClockCheck, in
/// Tests/ProbeClockCheck): forking this test process, with its threads and
/// libraries, stalled the whole run, and a clock made to run at a wrong
/// rate would put every other test's readings off.
@Suite struct ProbeClockProcessTests {
    /// A fork() while another thread holds the clock's lock (as it does for
    /// microseconds once a second, measuring the scale) leaves the child a
    /// clock it can use: the forking thread waits for the lock, so the
    /// child never starts with it held by a thread it does not have.
    @Test func aChildForkedWhileTheClockDecidesCanTakeItsLock() throws {
        let check = try CommandResult.run(BuildProducts.path(of: "ProbeClockCheck"), ["fork"])
        #expect(check.status == 0 && !check.signaled, "ProbeClockCheck fork: \(check.stderr)")
    }

    /// A line whose rate is off (1.25x, 0.75x, 5x, as a rate measured over
    /// the first millisecond can be), read again after 0.4 s without
    /// readings, is within 1 ms of the kernel's clock at its first reading
    /// and never runs back, also when that reading's measurement was
    /// preempted throughout; and still within 1 ms a second later. Carried
    /// across a test process's idle minutes, such a line once put readings
    /// 4 s ahead of the kernel's, for good. With the kernel's clock there
    /// is no line to check (exit 3).
    @Test func aReadingAfterATimeWithoutAnyIsOnTheKernelsClock() throws {
        let check = try CommandResult.run(BuildProducts.path(of: "ProbeClockCheck"), ["idle"])
        let expected: Int32 = machineKeepsTimeWithTheCounter ? 0 : 3
        #expect(check.status == expected && !check.signaled, "ProbeClockCheck idle: \(check.stderr)")
    }
}
