import Probes

/// A finding that tells the user what to change: which rule found it, on
/// what (an entity and a key path: its stable identity), how often the
/// pattern showed, the fix, and where it shows first. Every source of
/// evidence (a run, `Faultline.measure`, a SQL debug log) gives the same
/// insight with the same words for the same pattern.
public struct Insight: Codable, Equatable, Sendable {
    /// Stable identity: rule, entity, key path (for accepted-insights files).
    public var rule: InsightRuleID
    public var entity: String
    public var keyPath: String
    /// What was found and the fix, in one sentence.
    public var message: String
    /// The figures behind it.
    public var evidence: String
    /// Where it shows first: for an N+1, the fetch whose objects loaded one
    /// by one (where the prefetch goes); for a statement, its first call site.
    public var callSite: String
    /// Listed in the accepted-insights file: a known finding.
    public var accepted: Bool?
    /// How many times the pattern showed (lazy loads, executions, saves,
    /// rows stepped through): what the rule's threshold was compared with.
    public var count: Int?
    /// The change that would remove it, when it is one a run can try
    /// (`perf-run run --what-if`).
    public var fix: InsightFix?
    /// Time the pattern took in the iteration (the lazy loads', the
    /// statements'): what fixing it could save at most.
    public var costSeconds: Double?
    /// Why this is done on purpose where it was found (a scenario that
    /// measures exactly this): reported, never a regression, not advice.
    public var intended: String?
    /// The fix, measured (`--what-if`).
    public var whatIf: WhatIfOutcome?
    /// True for a full scan no index can serve (CONTAINS, LIKE with a
    /// leading wildcard, a function of the column such as case folding):
    /// true, but no index fixes it, so it ranks below what can be fixed
    /// ("what to fix first", a gate's failure). Nil otherwise.
    public var noIndexServes: Bool?

    public init(
        rule: InsightRuleID, entity: String, keyPath: String, message: String, evidence: String, callSite: String, count: Int? = nil,
        fix: InsightFix? = nil, costSeconds: Double? = nil
    ) {
        self.rule = rule
        self.entity = entity
        self.keyPath = keyPath
        self.message = message
        self.evidence = evidence
        self.callSite = callSite
        self.count = count
        self.fix = fix
        self.costSeconds = costSeconds
    }

    /// An insight of a rule named by a string (reports read back, old code).
    @available(*, deprecated, message: "name the rule by its InsightRuleID")
    public init(rule: String, entity: String, keyPath: String, message: String, evidence: String, callSite: String) {
        self.init(rule: InsightRuleID(rule), entity: entity, keyPath: keyPath, message: message, evidence: evidence, callSite: callSite)
    }

    /// What it is about, whatever the site: `rule/entity/keyPath`, a part
    /// the rule leaves empty left out (`save-in-loop/main`: saves have no
    /// entity; `count-by-fetch/Person`: no key path).
    public var subject: String { Self.subject(rule: rule.rawValue, entity: entity, keyPath: keyPath) }

    /// `rule/entity/keyPath` without the empty parts.
    static func subject(rule: String, entity: String, keyPath: String) -> String {
        var subject = rule
        if !entity.isEmpty { subject += "/\(entity)" }
        if !keyPath.isEmpty { subject += "/\(keyPath)" }
        return subject
    }

    /// Its identity: `rule/entity/keyPath@Module/File.swift:42`, the subject
    /// at its site (the fetch's for an N+1, the statement's otherwise), so
    /// that two screens with one N+1 are two insights, each accepted or
    /// compared on its own; the subject alone for an insight with no site
    /// (none, or the words of no call site).
    public var identity: String { CallSite.namesLine(callSite) ? "\(subject)@\(callSite)" : subject }

    /// Whether it is advice to act on: not accepted, not on purpose, and
    /// not measured to make no difference.
    public var isActionable: Bool {
        accepted != true && intended == nil && whatIf?.withdrawsTheAdvice != true
    }

    /// Whether a change of the model or the code the report names can
    /// remove it: not a scan no index can serve (``noIndexServes``).
    /// Rankings put what can be fixed first.
    public var canBeFixed: Bool { noIndexServes != true }
}

/// A change that would remove an insight, precise enough to apply it in a
/// run (`--what-if`) and to show the code.
public struct InsightFix: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// Prefetch `keyPath` on the fetch of `entity` at `fetchSite`.
        case prefetch
        /// Load the values of the objects of the fetch of `entity` at
        /// `fetchSite` with it (`includesPropertyValues = true`).
        case loadValues = "load-values"
        /// Index the attribute `keyPath` of `entity`.
        case index
    }

    public var kind: Kind
    public var entity: String
    /// The key path to prefetch, or the attribute to index.
    public var keyPath: String
    /// The fetches to change (prefetch, load-values): where they are asked for.
    public var fetchSites: [CallSite]

    public init(kind: Kind, entity: String, keyPath: String, fetchSites: [CallSite] = []) {
        self.kind = kind
        self.entity = entity
        self.keyPath = keyPath
        self.fetchSites = fetchSites
    }

    /// The fix as code in the model or at the fetch.
    public var code: String {
        switch kind {
        case .prefetch: "request.relationshipKeyPathsForPrefetching = [\"\(keyPath)\"]"
        case .loadValues: "request.includesPropertyValues = true"
        case .index: ".attribute(\"\(keyPath)\", …, indexed: true) on \(entity)"
        }
    }

    /// A short name (`prefetch author`, `index Selfie.rating`).
    public var summary: String {
        switch kind {
        case .prefetch: "prefetch `\(keyPath)`"
        case .loadValues: "load the values with the fetch"
        case .index: "index \(entity).\(keyPath)"
        }
    }
}
