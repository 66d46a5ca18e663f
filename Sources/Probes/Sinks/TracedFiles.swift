/// The call sites' files the LTTng sink has traced, by number: each file
/// gets a number the first time an event carries it, and its text goes in
/// that event's `call_site_file` field only (`""` in every later one), as a
/// statement's shape goes in one `faultline:sql_shape` event. A file's text
/// costs the trace about 9 instructions a byte, and every event has one.
///
/// The file of the last event is kept beside its number: consecutive events
/// of one file (a statement and its fault) compare equal at once, since the
/// same string is compared with itself. Not thread-safe: the sink guards it
/// with its lock.
struct TracedFiles {
    /// Each file's number, and the session (``forgetTold()``'s count) its
    /// text was last traced in.
    private var numbers: [String: (number: UInt64, toldIn: UInt64)] = [:]
    private var session: UInt64 = 0
    private var last: String?
    private var lastNumber: UInt64 = 0

    /// The number of `file`, and whether its text is to be traced now (the
    /// first time it is asked for since the last ``forgetTold()``).
    @inline(__always)
    mutating func number(of file: String) -> (number: UInt64, isNew: Bool) {
        if let last, last == file { return (lastNumber, false) }
        return slowNumber(of: file)
    }

    @inline(never)
    private mutating func slowNumber(of file: String) -> (number: UInt64, isNew: Bool) {
        let known = numbers[file]
        let number = known?.number ?? UInt64(numbers.count)
        let isNew = known?.toldIn != session
        if isNew { numbers[file] = (number, session) }
        last = file
        lastNumber = number
        return (number, isNew)
    }

    /// Every file's text is to be traced again, with the same number (a
    /// new session's trace has none of them; a session stopped and started
    /// again keeps each number meaning one file).
    mutating func forgetTold() {
        session += 1
        last = nil
    }
}
