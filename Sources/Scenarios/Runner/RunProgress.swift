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
public final class ProgressPrinter: @unchecked Sendable {
    private let lock = NSLock()
    private let terminal: Bool
    private let quiet: Bool
    private var drawn = false

    public init(quiet: Bool, terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.quiet = quiet
        self.terminal = terminal
    }

    public func show(_ progress: RunProgress) {
        if quiet {
            guard case .dataSetFailed = progress else { return }
        }
        lock.lock()
        defer { lock.unlock() }
        switch progress {
        case .dataSetFailed(let message):
            line(message, keep: true)
        case .building(let message):
            line(message, keep: true)
        case .buildStep(let dataSet, let done, let total):
            // A plain log gets the cache's "built" line once the file is in place.
            if terminal { line("building \(dataSet) [\(bar(done, total))] \(done)/\(total)", keep: false) }
        case .iteration(let scenario, let index, let total, let warmup):
            if terminal {
                line("\(scenario.padding(toLength: 15, withPad: " ", startingAt: 0)) [\(bar(index - 1, total))] \(index)/\(total)\(warmup ? " warm-up" : "")", keep: false)
            } else {
                line("\(scenario): \(warmup ? "warm-up \(index)" : "iteration \(index) of \(total)")", keep: true)
            }
        case .finished(let scenario, let status):
            line("\(scenario): \(status)", keep: true)
        case .whatIf(let scenario, let fix):
            line("\(scenario): what if \(fix)", keep: true)
        case .scale(let scenario, let scale):
            line("\(scenario): at scale \(scale)", keep: true)
        }
    }

    private func bar(_ done: Int, _ total: Int) -> String {
        let width = 24
        let filled = total == 0 ? width : width * min(done, total) / total
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }

    /// Ends a bar left on the screen.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { StandardError.write("\n") }
        drawn = false
    }

    private func line(_ text: String, keep: Bool) {
        if terminal {
            StandardError.write("\r\u{1B}[K" + TerminalText.escape(text) + (keep ? "\n" : ""))
            drawn = !keep
        } else {
            StandardError.write(TerminalText.escape(text) + "\n")
        }
    }
}
