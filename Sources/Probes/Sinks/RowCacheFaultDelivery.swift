/// How a sink takes a store's row-cache faults
/// (``EventSink/rowCacheFaultDelivery``): a fault loop's commonest traced
/// event, which a sink that only adds faults up is better off reading as
/// totals than receiving one by one.
public enum RowCacheFaultDelivery: Sendable {
    /// Each fault, as it happens (``EventSink/receiveFault(entity:primaryKey:context:source:missReason:durationNanoseconds:origin:callSite:event:)``,
    /// or ``EventSink/receiveRowCacheFault(entity:primaryKey:context:durationNanoseconds:callSite:event:)``
    /// from a store that also keeps a tally for other sinks).
    case eachFault
    /// Totals read from each store's ``RowCacheFaultTally``
    /// (``EventSink/countRowCacheFaults(from:)``): the store sends the
    /// sink no row-cache fault (one that reaches it through a measurement
    /// slot, from a tally it reads, it ignores).
    case tally
    /// Both, for a sink that holds sinks of each kind (a multiplex, the
    /// measurement slot): totals for those that count, each fault for the
    /// others.
    case tallyAndEachFault
}
