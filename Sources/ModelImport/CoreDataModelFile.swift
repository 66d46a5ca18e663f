import Foundation

/// Where the XML of a Core Data model is: the `contents` file of a version
/// of a `.xcdatamodeld` (by default the current one, which its
/// `.xccurrentversion` names), of a `.xcdatamodel`, or a `contents` file
/// given directly.
public enum CoreDataModelFile {
    /// The `contents` file to read for `path`, and the names of the versions
    /// beside it (for a `.xcdatamodeld`).
    public static func locate(_ path: String) throws -> (contents: String, versions: [String]) {
        let location = try resolve(path)
        return (location.contents, location.versions)
    }

    /// The model at `path`: for a `.xcdatamodeld`, the version named
    /// `version` (`Model 2` or `Model 2.xcdatamodel`), or the current one
    /// when `version` is nil. A version that is not there, or a version
    /// asked of a model that has none, is a ``ModelVersionError``.
    public static func resolve(_ path: String, version: String? = nil) throws -> CoreDataModelLocation {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelImportError("\(path): no such file or directory")
        }
        // Paths as the user gave them (relative stays relative).
        func inside(_ components: String...) -> String {
            components.reduce(path) { ($0 as NSString).appendingPathComponent($1) }
        }
        guard isDirectory.boolValue, !FileManager.default.fileExists(atPath: inside("contents")) else {
            if let version { throw ModelVersionError(model: path, requested: version, versions: []) }
            return CoreDataModelLocation(
                path: path, contents: isDirectory.boolValue ? inside("contents") : path, versions: [], version: nil, currentVersion: nil)
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { $0.dropLast(".xcdatamodel".count).localizedStandardCompare($1.dropLast(".xcdatamodel".count)) == .orderedAscending }
        guard !versions.isEmpty else {
            throw ModelImportError("\(path): neither a contents file nor .xcdatamodel versions inside (is it a Core Data model?)")
        }
        let current: String?
        switch try currentVersion(in: URL(fileURLWithPath: path)) {
        case .absent: current = versions.last!
        case .named(let name):
            guard versions.contains(name) else {
                throw ModelImportError("\(path)/.xccurrentversion: names \(name), which is not among the versions (\(versions.joined(separator: ", ")))")
            }
            current = name
        case .unnamed:
            // Xcode writes an empty `<dict/>` for a model whose current
            // version was never chosen: a single version is the current
            // one; among several, only --model-version can say which.
            current = versions.count == 1 ? versions[0] : nil
            if version == nil, current == nil {
                let names = versions.map { String($0.dropLast(".xcdatamodel".count)) }
                throw ModelImportError(
                    "\(path)/.xccurrentversion: names no current version (no _XCCurrentVersionName) and the model has "
                        + "\(versions.count) (\(names.joined(separator: ", "))): name one with --model-version or PATH:VERSION")
            }
        }
        var chosen = current ?? ""
        if let version {
            let folder = version.hasSuffix(".xcdatamodel") ? version : version + ".xcdatamodel"
            guard versions.contains(folder) else { throw ModelVersionError(model: path, requested: version, versions: versions) }
            chosen = folder
        }
        let contents = inside(chosen, "contents")
        guard FileManager.default.fileExists(atPath: contents) else {
            throw ModelImportError("\(contents): missing (a model saved by Xcode 4 or later has one per version)")
        }
        return CoreDataModelLocation(path: path, contents: contents, versions: versions, version: chosen, currentVersion: current)
    }

    /// What a `.xccurrentversion` says.
    enum CurrentVersion: Equatable {
        /// There is no `.xccurrentversion`.
        case absent
        /// It names this version (`Model 2.xcdatamodel`).
        case named(String)
        /// It is a dictionary without `_XCCurrentVersionName` (Xcode writes
        /// an empty `<dict/>` when no version was chosen).
        case unnamed
    }

    /// What `.xccurrentversion` says of the model's current version.
    static func currentVersion(in model: URL) throws -> CurrentVersion {
        let file = model.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: file.path) else { return .absent }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ModelImportError("\(file.path): not a property list")
        }
        guard let dictionary = plist as? [String: Any] else {
            throw ModelImportError("\(file.path): not a dictionary (a property list holding _XCCurrentVersionName)")
        }
        guard let value = dictionary["_XCCurrentVersionName"] else { return .unnamed }
        guard let name = value as? String else {
            throw ModelImportError("\(file.path): _XCCurrentVersionName is not a string")
        }
        return .named(name)
    }
}

/// A model that cannot be read: one line naming the file and, where known,
/// the line, column and element.
public struct ModelImportError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
