import ArgumentParser
import Foundation
import ModelImport
import ObjectGraph
import Scenarios
import ToolSupport

/// A command's end with a status and nothing more to say (a run whose
/// scenario failed, a comparison with a regression, a signal's stop).
struct CommandExit: Error {
    let status: ExitStatus
    init(_ status: ExitStatus) { self.status = status }
}

extension ExitStatus {
    /// The one mapping from an error to how perf-run ends, and the line it
    /// prints on standard error (nil: nothing to print; the help text is
    /// printed on standard output by the caller).
    static func of(_ error: any Error) -> (status: ExitStatus, message: String?) {
        switch error {
        case let exit as CommandExit: return (exit.status, nil)
        case let failure as any CommandFailure: return (failure.exitStatus, failure.description)
        // Below Reporting, errors that are bad input by nature.
        case let error as ObjectGraphError: return (.badInput, error.description)
        case let error as PredicateSyntaxError: return (.badInput, error.description)
        case let error as ScenarioFailure: return (.badInput, error.description)
        default: break
        }
        // Argument parsing: help and version (0), bad usage (2, as diff has it;
        // argument-parser's own usage errors are 64).
        let code = PerfRun.exitCode(for: error)
        if code == .success { return (.success, nil) }
        if code == .validationFailure || code.rawValue == 64 { return (.badInput, PerfRun.message(for: error)) }
        if code == .failure { return (.failure, PerfRun.message(for: error)) }
        return (ExitStatus(rawValue: code.rawValue) ?? .failure, PerfRun.message(for: error))
    }
}

extension ModelImportError: CommandFailure {
    /// A model that cannot be read: bad input.
    public var exitStatus: ExitStatus { .badInput }
}

extension ModelVersionError: CommandFailure {
    /// A model version that does not exist: bad input.
    public var exitStatus: ExitStatus { .badInput }
}
