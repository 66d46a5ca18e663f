import ObjectGraph

/// A Core Data model file read into a Faultline model in one step.
public enum ImportedModelFile {
    /// The model at `path` (`Model.xcdatamodeld:Model 2` names a version,
    /// see ``CoreDataModelReference``); throws when the file cannot be read
    /// or nothing of it makes a model.
    public static func read(_ path: String) throws -> Model {
        let location = try CoreDataModelReference(argument: path).resolve()
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(location.contents))
        guard let model = imported.model else {
            throw ModelImportError("\(path): no model can be made of it: \(imported.error ?? "nothing maps")")
        }
        return model
    }
}
