/// A measurement that could not run, or a check that did not hold: its
/// description says what and shows the evidence.
public struct MeasurementFailure: Error, CustomStringConvertible, Sendable {
    /// What failed, with the evidence: for a check that did not hold, the
    /// headline, then the statements the block ran (those the check is
    /// about marked `>`).
    public let description: String
    /// A failure that reads as `description`.
    public init(_ description: String) { self.description = description }
}
