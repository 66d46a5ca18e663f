/// One version of a Core Data model, found on disk: the path given, the
/// `contents` file to read, and, for a `.xcdatamodeld`, its versions, the
/// one chosen and the current one.
public struct CoreDataModelLocation: Equatable, Sendable {
    /// The path as given (`Model.xcdatamodeld`, `Model.xcdatamodel`, a `contents` file).
    public var path: String
    /// The `contents` file read.
    public var contents: String
    /// The `.xcdatamodel` folders of a `.xcdatamodeld`, in natural order
    /// (`Model`, `Model 2`, `Model 10`); empty for a single model.
    public var versions: [String]
    /// The version read (`Model 2.xcdatamodel`), nil for a single model.
    public var version: String?
    /// The version `.xccurrentversion` names (the last one when there is
    /// no such file), nil for a single model.
    public var currentVersion: String?

    /// A location as ``CoreDataModelFile/resolve(_:version:)`` finds one.
    public init(path: String, contents: String, versions: [String], version: String?, currentVersion: String?) {
        self.path = path
        self.contents = contents
        self.versions = versions
        self.version = version
        self.currentVersion = currentVersion
    }

    /// The version's name without `.xcdatamodel` (`Model 2`).
    public var versionName: String? { version.map { String($0.dropLast(".xcdatamodel".count)) } }

    /// Whether the version read is the current one (always, for a single model).
    public var isCurrent: Bool { version == currentVersion }
}
