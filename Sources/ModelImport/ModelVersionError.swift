/// A model version asked for (`--model-version`, `Model.xcdatamodeld:Name`) that
/// the model does not have: one line naming the model, the version asked
/// and the versions there are.
public struct ModelVersionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The model's path as given.
    public let model: String
    /// The version asked for, as given.
    public let requested: String
    /// The model's versions (`.xcdatamodel` folders); empty when the model
    /// is a single `.xcdatamodel` or `contents` file, which has none.
    public let versions: [String]

    public init(model: String, requested: String, versions: [String]) {
        self.model = model
        self.requested = requested
        self.versions = versions
    }

    public var description: String {
        guard !versions.isEmpty else {
            return "\(model) has no versions (only a .xcdatamodeld has): there is no version \(requested)"
        }
        let names = versions.map { $0.hasSuffix(".xcdatamodel") ? String($0.dropLast(".xcdatamodel".count)) : $0 }
        return "\(model) has no version \(requested) (its versions: \(names.joined(separator: ", ")))"
    }
}
