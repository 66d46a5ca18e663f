import Foundation
import ToolSupport

/// What the runner is doing, for a progress display.
public enum RunProgress: Sendable, Equatable {
    /// Building (or rebuilding) a data set.
    case building(String)
    /// A data set being built: `done` of `total` steps.
    case buildStep(dataSet: String, done: Int, total: Int)
    /// Starting an iteration: `index` from 1 to `total`, warm-up ones first.
    case iteration(scenario: String, index: Int, total: Int, warmup: Bool)
    /// A scenario ended.
    case finished(scenario: String, status: String)
    /// A scenario runs again with an insight's fix applied (`--what-if`).
    case whatIf(scenario: String, fix: String)
    /// A scenario runs at another of the run's scales (`--scales`), to fit
    /// its counts against the scale.
    case scale(scenario: String, scale: Double)
    /// A data set could not be built, copied or verified, or its cache is
    /// not safe to use: one line naming the file and the reason. The run
    /// stops (exit code 2); shown even when quiet.
    case dataSetFailed(String)
}

/// Shows progress on standard error: a bar redrawn in place on a terminal,
/// plain lines otherwise (a CI log), nothing when quiet but a data set's
/// failure, the error that stops the run.
///
/// An iteration's progress counts the iterations done, never the one under
/// way: `3/10 done` while the fourth runs, with the time since the
/// scenario began and, once a measured iteration is done, the time left
/// at the pace of those done. On a terminal the bar is drawn again every
/// second, so the time moves while a long iteration runs.
public final class ProgressPrinter: @unchecked Sendable {
    private let lock = NSLock()
    private let terminal: Bool
    private let quiet: Bool
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> UInt64
    private var drawn = false
    /// The scenario under way and when it began (its first event).
    private var scenario: (name: String, start: UInt64)?
    /// When the scenario's first measured iteration began.
    private var measuredStart: UInt64?
    /// When the data set being built began.
    private var buildStart: UInt64?
    /// The bar on screen, drawn again as time passes.
    private var bar: RunProgress?
    private var ticker: DispatchSourceTimer?

    public convenience init(quiet: Bool, terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.init(quiet: quiet, terminal: terminal, ticks: terminal, write: { StandardError.write($0) }, now: { ProgressPrinter.monotonicNanoseconds() })
    }

    /// A printer writing with `write` and reading time from `now`
    /// (monotonic nanoseconds); with `ticks`, a terminal's bar is drawn
    /// again every second.
    init(quiet: Bool, terminal: Bool, ticks: Bool, write: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> UInt64) {
        self.quiet = quiet
        self.terminal = terminal
        self.write = write
        self.now = now
        if ticks && terminal && !quiet {
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "faultline.progress"))
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()
            ticker = timer
        }
    }

    deinit { ticker?.cancel() }

    /// Monotonic nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    public func show(_ progress: RunProgress) {
        if quiet {
            guard case .dataSetFailed = progress else { return }
        }
        lock.lock()
        defer { lock.unlock() }
        let time = now()
        switch progress {
        case .dataSetFailed(let message):
            line(message, keep: true)
        case .building(let message):
            buildStart = nil
            line(message, keep: true)
        case .buildStep(_, let done, _):
            // A plain log gets the cache's "built" line once the file is in place.
            if done == 0 || buildStart == nil { buildStart = time }
            if terminal { draw(progress, at: time) }
        case .iteration(let name, let index, _, let warmup):
            if scenario?.name != name { begin(name, at: time) }
            if !warmup, index == 1 { measuredStart = time }
            if terminal {
                draw(progress, at: time)
            } else {
                line(Self.text(of: progress, scenarioStart: scenario?.start ?? time, measuredStart: measuredStart, buildStart: nil, at: time, terminal: false), keep: true)
            }
        case .finished(let name, let status):
            let took = scenario?.name == name ? scenario.map { " in \(ElapsedText(nanoseconds: time &- $0.start))" } ?? "" : ""
            line("\(name): \(status)\(took)", keep: true)
            scenario = nil
            measuredStart = nil
        case .whatIf(let name, let fix):
            if scenario?.name != name { begin(name, at: time) }
            line("\(name): what if \(fix)", keep: true)
        case .scale(let name, let scale):
            if scenario?.name != name { begin(name, at: time) }
            line("\(name): at scale \(scale)", keep: true)
        }
    }

    private func begin(_ name: String, at time: UInt64) {
        scenario = (name, time)
        measuredStart = nil
    }

    /// Draws `progress`'s bar and keeps it to draw again.
    private func draw(_ progress: RunProgress, at time: UInt64) {
        bar = progress
        line(Self.text(of: progress, scenarioStart: scenario?.start ?? time, measuredStart: measuredStart, buildStart: buildStart, at: time, terminal: true), keep: false)
    }

    /// Draws the bar on screen again, with the time now.
    func tick() {
        lock.lock()
        defer { lock.unlock() }
        guard drawn, let bar else { return }
        draw(bar, at: now())
    }

    /// The text of an iteration's or a build's progress.
    static func text(
        of progress: RunProgress, scenarioStart: UInt64, measuredStart: UInt64?, buildStart: UInt64?, at time: UInt64, terminal: Bool
    ) -> String {
        switch progress {
        case .buildStep(let dataSet, let done, let total):
            let elapsed = buildStart.map { " · \(ElapsedText(nanoseconds: time &- $0)) elapsed" } ?? ""
            return "building \(dataSet) [\(bar(done, total))] \(done)/\(total)\(elapsed)"
        case .iteration(let name, let index, let total, let warmup):
            let done = index - 1
            var text = terminal
                ? "\(name.padding(toLength: 15, withPad: " ", startingAt: 0)) [\(bar(done, total))] \(done)/\(total) \(warmup ? "warm-up " : "")done"
                : "\(name): \(warmup ? "warm-up \(index) of \(total)" : "iteration \(index) of \(total)"), \(done) done"
            text += " · \(ElapsedText(nanoseconds: time &- scenarioStart)) elapsed"
            if !warmup, done > 0, let measuredStart {
                let perIteration = Double(time &- measuredStart) / Double(done)
                text += " · about \(ElapsedText(nanoseconds: UInt64(perIteration * Double(total - done)))) left"
            }
            return text
        default:
            return ""
        }
    }

    private static func bar(_ done: Int, _ total: Int) -> String {
        let width = 24
        let filled = total == 0 ? width : width * min(done, total) / total
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }

    /// Ends a bar left on the screen and stops drawing it again.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        ticker?.cancel()
        ticker = nil
        bar = nil
        if drawn { write("\n") }
        drawn = false
    }

    private func line(_ text: String, keep: Bool) {
        if terminal {
            write("\r\u{1B}[K" + TerminalText.escape(text) + (keep ? "\n" : ""))
            drawn = !keep
            if keep { bar = nil }
        } else {
            write(TerminalText.escape(text) + "\n")
        }
    }
}
