/// The call sites the LTTng sink has traced, by number: each call site gets
/// a number the first time an event carries it, and its text (module,
/// file, line, function) goes into one `faultline:call_site` event per
/// session, as a statement's shape goes into one `faultline:sql_shape`
/// event; every event of that site carries the number alone.
///
/// A site seen before costs a slot of a small table: the slot is picked by
/// the line and the file's length, and holds the site, its number and the
/// session its text was told in, so a hit is two integer compares and a
/// compare of the file (the same string compared with itself, for the
/// literal every call of a line passes). Anything else (a site not in its
/// slot, one not told in this session) looks the site up in a dictionary.
///
/// A site still to be named from the stack (``CallerLine``) is numbered as
/// the site it names: it is named once, the first time it is traced, and
/// two chains that name one line share its number. Not thread-safe: the
/// sink guards it with its lock.
struct TracedCallSites {
    /// A site as events carry it, its number, and the session its text was
    /// told in (0: none).
    private struct Slot {
        var file: String
        var line: Int
        var number: Int
        var toldIn: UInt64
    }

    /// log2 of the slots.
    private static let slotBits = 6
    private var slots = [Slot](repeating: Slot(file: "", line: .min, number: 0, toldIn: 0), count: 1 << slotBits)
    /// Numbers by site as events carry it, pending or named.
    private var numbersByKey: [CallSite: Int] = [:]
    /// Numbers by named site.
    private var numbersBySite: [CallSite: Int] = [:]
    /// The named site of each number.
    private(set) var sites: [CallSite] = []
    /// The session each number's text was last told in (0: never).
    private var toldIn: [UInt64] = []
    /// The session now (``forgetTold()`` counts them), from 1.
    private var session: UInt64 = 1

    /// The number of `site`. When its text was not told in this session,
    /// `tell` is given the number and the named site, and returns whether
    /// it told them (a session that does not record `faultline:call_site`
    /// is not told, so that a later one that does still is).
    @inline(__always)
    mutating func number(of site: CallSite, tell: (UInt64, CallSite) -> Bool) -> UInt64 {
        let index = Self.slot(of: site)
        if slots[index].line == site.line, slots[index].toldIn == session, slots[index].file == site.file {
            return UInt64(slots[index].number)
        }
        return slowNumber(of: site, slot: index, tell: tell)
    }

    /// The slot of a site: its line and its file's length, mixed (a native
    /// string knows its length; its bytes are not read).
    @inline(__always)
    private static func slot(of site: CallSite) -> Int {
        let mixed = UInt64(bitPattern: Int64(site.line &+ site.file.utf8.count &* 31)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
    }

    @inline(never)
    private mutating func slowNumber(of site: CallSite, slot index: Int, tell: (UInt64, CallSite) -> Bool) -> UInt64 {
        let number = number(ofKey: site)
        if toldIn[number] != session, tell(UInt64(number), sites[number]) { toldIn[number] = session }
        slots[index] = Slot(file: site.file, line: site.line, number: number, toldIn: toldIn[number])
        return UInt64(number)
    }

    private mutating func number(ofKey site: CallSite) -> Int {
        if let known = numbersByKey[site] { return known }
        let named = site.resolved
        let number: Int
        if let existing = numbersBySite[named] {
            number = existing
        } else {
            number = sites.count
            sites.append(named)
            toldIn.append(0)
            numbersBySite[named] = number
        }
        numbersByKey[site] = number
        return number
    }

    /// Every site's text is to be told again, with the same number (a new
    /// session's trace has none of them; a session stopped and started
    /// again keeps each number meaning one site).
    mutating func forgetTold() {
        session += 1
    }
}
