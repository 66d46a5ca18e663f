import Foundation
import ToolSupport

/// A model named on the command line, with the version to read:
/// `Model.xcdatamodeld` (its current version), `Model.xcdatamodeld:Model 2`
/// (the version `Model 2`), a `.xcdatamodel` or a `contents` file.
///
/// A path that exists as written is taken whole, colons included; only
/// when it does not is the text after its last colon a version, and then
/// only when the text before it names a `.xcdatamodeld` that exists.
public struct CoreDataModelReference: Equatable, Sendable {
    /// The model's path.
    public var path: String
    /// The version named after the colon, nil for none.
    public var version: String?

    /// The model at `path`, at `version` (nil: its current one).
    public init(path: String, version: String? = nil) {
        self.path = path
        self.version = version
    }

    /// Reads `PATH` or `PATH.xcdatamodeld:VERSION`.
    public init(argument: String) {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: argument),
            let colon = argument.lastIndex(of: ":"),
            case let model = String(argument[..<colon]), case let version = String(argument[argument.index(after: colon)...]),
            !version.isEmpty,
            (model as NSString).pathExtension == "xcdatamodeld",
            FileManager.default.fileExists(atPath: model, isDirectory: &isDirectory), isDirectory.boolValue
        {
            self.init(path: model, version: version)
        } else {
            self.init(path: argument)
        }
    }

    /// The reference with the version `value` of the option `option`
    /// (`--version-a`) when it names none of its own; a different one
    /// after the colon too is a ``UsageError``.
    public func with(version value: String?, option: String) throws(UsageError) -> CoreDataModelReference {
        guard let value else { return self }
        func bare(_ name: String) -> Substring { name.hasSuffix(".xcdatamodel") ? name.dropLast(".xcdatamodel".count) : Substring(name) }
        if let version, bare(version) != bare(value) {
            throw UsageError(option: option, "\(value): \(path):\(version) already names a version; give it once")
        }
        return CoreDataModelReference(path: path, version: value)
    }

    /// The model file this reference names.
    public func resolve() throws -> CoreDataModelLocation { try CoreDataModelFile.resolve(path, version: version) }
}
