/// A report, settings file or output that cannot be read or written, in
/// one line.
public struct ReportError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
