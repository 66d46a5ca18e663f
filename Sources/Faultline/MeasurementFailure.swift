/// A measurement that could not run, or a check that did not hold: its
/// description says what and shows the evidence.
public struct MeasurementFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
