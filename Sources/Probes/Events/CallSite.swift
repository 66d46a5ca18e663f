/// The source line that caused an event: a fetch's or save's caller, or the
/// innermost `perform` block or scenario step around a typed property read;
/// or no line, with the reason (``absence``).
public struct CallSite: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, as `#fileID` names it (`App/Gallery.swift`); empty when
    /// there is no call site.
    public let file: String
    /// The line, from 1. A site with no line keeps the reason's number
    /// here (0 or less: ``absence``), so that a site stays two words wide.
    public let line: Int

    /// The call site at `line` of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// No call site, for `reason`.
    public init(noSiteBecause reason: CallSiteAbsence) {
        self.file = ""
        self.line = reason.code
    }

    /// No call site known, and no reason recorded (a report of an earlier
    /// version read back). The engine gives a reason (``CallSiteAbsence``).
    public static let unknown = CallSite(noSiteBecause: .notRecorded)

    /// Why there is no call site; nil for a file and line (a site still to
    /// be named from the stack has one).
    public var absence: CallSiteAbsence? { CallSiteAbsence(code: line) }

    /// Whether the site names a file and line.
    public var isKnown: Bool { line > 0 }

    /// `File.swift:42`; a call site still to be named from the stack
    /// (``CallerLine``) is named first; `no call site (the store's own
    /// work)` where there is none.
    public var description: String {
        let site = resolved
        if let absence = site.absence { return "no call site (\(absence.explanation))" }
        return "\(site.file):\(site.line)"
    }

    /// The site as one word, as the SQL debug log writes it after ` at `:
    /// `File.swift:42`, or `no-call-site:store-work` (the log's grammar
    /// reads a site up to a space, `)` or `;`).
    public var logText: String {
        let site = resolved
        if let absence = site.absence { return Self.noSiteMarker + absence.rawValue }
        return "\(site.file):\(site.line)"
    }

    /// The file a trace's `faultline:call_site` event carries: the file,
    /// or for no site its ``logText`` (`no-call-site:store-work`), with
    /// ``traceLine`` 0.
    public var traceFile: String { line > 0 ? file : logText }

    /// The line a trace's `faultline:call_site` event carries: 0 for no site.
    public var traceLine: Int { max(0, line) }

    /// The module of the file, as `#fileID` names it: `App` of
    /// `App/Gallery.swift`, the part before the first `/`; empty for a
    /// file that names none and for no call site.
    public var module: String {
        guard line > 0, let slash = file.utf8.firstIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(file[..<slash])
    }

    /// What starts a ``logText`` of no call site.
    public static let noSiteMarker = "no-call-site:"

    /// The site a ``logText`` names back: a file and line, or no site for
    /// its reason (`?:0`, an earlier log's, is none recorded).
    public init(logFile file: String, line: Int) {
        if line <= 0 {
            let reason = file.hasPrefix(Self.noSiteMarker) ? CallSiteAbsence(rawValue: String(file.dropFirst(Self.noSiteMarker.count))) : nil
            self.init(noSiteBecause: reason ?? .notRecorded)
        } else {
            self.init(file: file, line: line)
        }
    }

    /// Whether a text is a site's `File.swift:42` (a file, a colon, a line
    /// from 1), as insights and accepted-insights entries hold sites; not
    /// the words of no call site.
    public static func namesLine(_ text: String) -> Bool {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else { return false }
        let digits = text[text.index(after: colon)...]
        return !digits.isEmpty && digits.utf8.allSatisfy { $0 &- 0x30 < 10 } && Int(digits).map { $0 >= 1 } == true
    }

    /// The call site with its file and line: a pending one named from the
    /// stack (``CallerLine/resolve(_:)``), any other as it is.
    public var resolved: CallSite {
        isPending ? CallerLine.resolve(self) : self
    }

    /// Whether the site is still to be named. The lengths are compared
    /// first (a native string knows its own): a file name is seldom as
    /// short as the pending marker, and comparing the texts of two strings
    /// of different lengths cost tens of instructions per traced event.
    private var isPending: Bool {
        file.utf8.count == CallerLine.pendingFile.utf8.count && file == CallerLine.pendingFile
    }

    private enum CodingKeys: String, CodingKey { case file, line, noCallSite }

    /// Decodes `file` and `line`, and the reason for no site
    /// (`noCallSite`); an earlier report's `?:0` is none recorded.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let line = try container.decode(Int.self, forKey: .line)
        if let reason = try container.decodeIfPresent(CallSiteAbsence.self, forKey: .noCallSite) {
            self.init(noSiteBecause: reason)
        } else if line <= 0 {
            self.init(noSiteBecause: .notRecorded)
        } else {
            self.init(file: try container.decode(String.self, forKey: .file), line: line)
        }
    }

    /// Encoded named (``resolved``): `file` and `line`; no site as an
    /// empty file, line 0 and `noCallSite`, its reason.
    public func encode(to encoder: any Encoder) throws {
        let site = resolved
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let absence = site.absence {
            try container.encode("", forKey: .file)
            try container.encode(0, forKey: .line)
            try container.encode(absence, forKey: .noCallSite)
        } else {
            try container.encode(site.file, forKey: .file)
            try container.encode(site.line, forKey: .line)
        }
    }
}
