import Probes

/// Why the engine runs the statements of one connection now, and for which
/// call site: the store sets it before it uses the connection, and the
/// connection's statement hook reads it into each SQL event.
///
/// It lives beside the connection (one per connection, captured by that
/// connection's hook) rather than in it: the SQLite layer reports what a
/// statement did, and knows nothing of purposes and call sites.
final class StatementOrigin {
    /// `fault`, `fetch Person`, `prefetch Selfie.people`, `transaction`, …
    @exclusivity(unchecked) var purpose = "" {
        didSet {
            isTransaction = false
            isEngineWork = EngineWork.isEngineWork(purpose: purpose)
        }
    }
    /// Whether the statements run now are the engine's own bookkeeping
    /// (``EngineWork``): known once per purpose, not per statement.
    @exclusivity(unchecked) private(set) var isEngineWork = false
    /// Whether the statements run now begin or end a transaction
    /// (``useTransactionPurpose()``): known here, so that no statement
    /// compares its purpose's text.
    @exclusivity(unchecked) private(set) var isTransaction = false
    @exclusivity(unchecked) var callSite = CallSite(noSiteBecause: .storeWork)
    /// What the engine knows of the statements run now (a fetch's), or nil.
    @exclusivity(unchecked) var facts: StatementFacts?

    init() {}

    /// The purpose of the statements that begin and end transactions.
    @inline(__always)
    func useTransactionPurpose() {
        purpose = SQLEvent.transactionPurpose
        isTransaction = true
    }
}
