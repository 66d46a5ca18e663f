import Foundation

/// Where the XML of a Core Data model is: the `contents` file of the
/// current version of a `.xcdatamodeld` (named by its `.xccurrentversion`),
/// of a `.xcdatamodel`, or a `contents` file given directly.
public enum CoreDataModelFile {
    /// The `contents` file to read for `path`, and the names of the versions
    /// beside it (for a `.xcdatamodeld`).
    public static func locate(_ path: String) throws -> (contents: String, versions: [String]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelImportError("\(path): no such file or directory")
        }
        guard isDirectory.boolValue else { return (path, []) }
        // Paths as the user gave them (relative stays relative).
        func inside(_ components: String...) -> String {
            components.reduce(path) { ($0 as NSString).appendingPathComponent($1) }
        }
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: inside("contents")) {
            return (inside("contents"), [])
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard !versions.isEmpty else {
            throw ModelImportError("\(path): neither a contents file nor .xcdatamodel versions inside (is it a Core Data model?)")
        }
        let current = try currentVersion(in: url) ?? versions.last!
        guard versions.contains(current) else {
            throw ModelImportError("\(path)/.xccurrentversion: names \(current), which is not among the versions (\(versions.joined(separator: ", ")))")
        }
        let contents = inside(current, "contents")
        guard FileManager.default.fileExists(atPath: contents) else {
            throw ModelImportError("\(contents): missing (a model saved by Xcode 4 or later has one per version)")
        }
        return (contents, versions)
    }

    /// The version `.xccurrentversion` names, nil when there is no such file.
    static func currentVersion(in model: URL) throws -> String? {
        let file = model.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ModelImportError("\(file.path): not a property list")
        }
        guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
            throw ModelImportError("\(file.path): no _XCCurrentVersionName")
        }
        return name
    }
}

/// A model that cannot be read: one line naming the file and, where known,
/// the line, column and element.
public struct ModelImportError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
