import Foundation

/// What went wrong, in the system's words: the POSIX reason under a
/// Foundation file error ("Is a directory", "Permission denied"), else the
/// error's own description. For one-line messages that name a path.
func failureReason(_ error: any Error) -> String {
    (error as? CocoaError).flatMap { ($0.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription }
        ?? error.localizedDescription
}
