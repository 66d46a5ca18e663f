import Foundation

/// SIGPIPE held back around a write: a pipe whose reader left is the
/// write's `EPIPE`, not the end of the process (a report half written, a
/// run lost because whoever read its progress went away).
public enum PipeSignal {
    /// Runs `body`, a write, with SIGPIPE blocked on this thread, and takes
    /// back a SIGPIPE that the write raised (not one pending before), which
    /// `brokePipe` recognises from the write's result.
    public static func heldBack<Result>(_ body: () -> Result, brokePipe: (Result) -> Bool) -> Result {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let pendingBefore = sigismember(&pending, SIGPIPE) == 1
        let result = body()
        if brokePipe(result), !pendingBefore {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSignal, nil, &none) < 0, errno == EINTR {}
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }

    /// Writes `text` on standard error whole, dropping its errors (a closed
    /// descriptor, a full disk, a reader gone: there is nowhere left to say
    /// them) and a broken pipe's SIGPIPE.
    public static func writeToStandardError(_ text: String) {
        var text = text
        _ = text.withUTF8 { bytes in
            heldBack({ DescriptorWrite.all(STDERR_FILENO, bytes) }, brokePipe: { $0.error == EPIPE })
        }
    }
}
