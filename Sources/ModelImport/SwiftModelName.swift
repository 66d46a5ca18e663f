/// The name of the enum that `perf-run model import --swift` declares the
/// model in (`public enum BookStoreModel { public static let model = … }`),
/// and that names the protocol its classes share (`BookStoreModelObject`).
///
/// By default it comes from the model file's name: the `.xcdatamodeld`'s
/// (so every version of a model gives the same name), else the
/// `.xcdatamodel`'s, else the folder of the `contents` file; its letters
/// and digits in words that start with a capital, and `Model` after them
/// unless they end so (`BookStore.xcdatamodeld` → `BookStoreModel`,
/// `BookmarksModel.xcdatamodeld` → `BookmarksModel`, `WordPress
/// 20.xcdatamodel` → `WordPress20Model`, `Model.xcdatamodeld` →
/// `DataModel`). `--name` gives another.
public struct SwiftModelName: Sendable, Hashable, CustomStringConvertible {
    /// The enum's name, a Swift identifier.
    public let identifier: String

    /// A name given by the user (`--name`): a plain identifier
    /// (`[A-Za-z_][A-Za-z0-9_]*`) that is not a keyword and not a name the
    /// generated source uses for something else (`Model`, `Entity`,
    /// `String`, …).
    public init(_ name: String) throws(ModelImportError) {
        guard SwiftIdentifier.isPlain(name) else {
            throw ModelImportError("\(name): not a Swift identifier (letters, digits and _, not starting with a digit)")
        }
        guard !SwiftIdentifier.keywords.contains(name), !ModelSwiftNames.reservedTypeNames.contains(name) else {
            throw ModelImportError("\(name): a name the generated source uses for something else")
        }
        identifier = name
    }

    /// The name the model file at `path` gives (a `contents` file, a
    /// `.xcdatamodel` or a `.xcdatamodeld`).
    public init(modelFile path: String) {
        let components = path.split(separator: "/").map(String.init)
        let base: String
        if let bundle = components.last(where: { $0.hasSuffix(".xcdatamodeld") }) {
            base = String(bundle.dropLast(".xcdatamodeld".count))
        } else if let version = components.last(where: { $0.hasSuffix(".xcdatamodel") }) {
            base = String(version.dropLast(".xcdatamodel".count))
        } else if components.last == "contents" {
            base = components.count >= 2 ? components[components.count - 2] : ""
        } else {
            base = components.last.map { String($0.prefix { $0 != "." }) } ?? ""
        }
        let words = SwiftIdentifier.typeName(fromWords: base) ?? "Data"
        identifier = words == "Model" ? "DataModel" : words.hasSuffix("Model") ? words : words + "Model"
    }

    public var description: String { identifier }

    /// The protocol every class of the model conforms to: the name and
    /// `Object` (`BookStoreModelObject`).
    var objectProtocol: String { identifier + "Object" }
}
