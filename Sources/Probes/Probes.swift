/// Probes: the event vocabulary, the sinks and the counters.
///
/// This module knows nothing of the object-graph engine: the engine emits
/// plain values through it.
public enum Probes {}
