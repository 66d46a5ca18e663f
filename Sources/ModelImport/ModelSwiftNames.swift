import ObjectGraph

/// The Swift names in the classes `perf-run model import --swift`
/// generates: each entity's class and each property's name in it, chosen
/// so that the source compiles whatever the model's names are.
///
/// - A class is named after the entity's `representedClassName` without
///   its module (`.Book`, `MyApp.Book` → `Book`); after the entity when
///   there is none, when it is `NSManagedObject` or not a plain identifier.
///   A name the source needs for something else (`Model`, `Entity`,
///   `String`, `Date`, the model's enum and protocol, a keyword) or that
///   an earlier entity took (a subentity of the same class as its parent)
///   falls back to the entity's name, then to the entity's name and
///   `Object` (`DateObject`), then to that and a number. So does a name
///   that a member of the classes would shadow inside them (Swift finds a
///   member before a type of that name): `ManagedObject`'s own members
///   (`value`, `context`, `description`, …), the members the generated
///   source declares (`fetchRequest`, `entityName`, `addTo…`, …).
/// - A property keeps its model name, in backticks when it is a keyword
///   (`` `default` ``), with `_` after it when the name is one that
///   `ManagedObject` or every generated class already has (`entity`,
///   `context`, `description`, `entityName`, …), one that cannot follow a
///   dot (`self`, `Type`), or the name of a type the source uses; a name
///   taken by another property of the class gets more `_`.
/// - An attribute's property keeps its value in a field named `_` and the
///   property's name (`_title`); a property whose name or whose field's
///   name another property of the class or of an ancestor (or that
///   property's field) already took gets more `_`.
/// - A to-many relationship's `addTo…`/`removeFrom…` methods are named
///   after its Swift name, capitalized; one that another to-many of the
///   class (or of an ancestor) already took (`pages` and `Pages`) gets `_`
///   until it is unique.
///
/// Each name that differs from the model's for any of these reasons is
/// listed in ``renames``, which the generated file's header repeats.
struct ModelSwiftNames {
    /// Names of types the generated source refers to (and `model`, the
    /// enum's member): no class may shadow them.
    static let reservedTypeNames: Set<String> = [
        "Any", "AnyKeyPath", "AnyObject", "Array", "Bool", "Data", "Date", "Dictionary", "Double", "Entity", "EntityNamed",
        "Error", "FetchRequest", "Foundation", "Int", "Int16", "Int32", "Int64", "KeyPathNamed", "ManagedObject", "Model",
        "Never", "ObjectGraph", "ObjectPredicate", "Optional", "Protocol", "Self", "Sendable", "SortKey", "String", "Swift",
        "Type", "UUID", "Void", "model",
    ]

    /// Names a generated property cannot take: `ManagedObject`'s own
    /// properties (which cannot be overridden), the members every
    /// generated class declares, and names that mean something else after
    /// a dot or in a key path.
    static let reservedPropertyNames: Set<String> = [
        "objectID", "context", "entity", "isFault", "isInserted", "isDeleted", "hasChanges", "isValid", "description",
        "entityName", "keyNames", "keyNameTable", "fetchRequest", "hasFaultHooks", "self", "Self", "Type", "Protocol", "_",
    ]

    /// Names of `ManagedObject`'s members (and of the protocols the
    /// generated classes conform to), and of the members and locals the
    /// generated source declares: a class of one of these names would be
    /// shadowed by the member inside the classes.
    static let memberNames: Set<String> = [
        "addObject", "awakeFromInsert", "context", "debugDescription", "description", "didTurnIntoFault", "entity", "entityName",
        "error", "fetchRequest", "fetchRequestTemplates", "file", "fireFault", "hash", "hashValue", "hasChanges", "hasFaultHooks", "isDeleted",
        "isFault", "isInserted", "isValid", "keyNameTable", "keyNames", "line", "newValue", "object", "objectID", "objects",
        "removeObject", "setObject", "setObjects", "setValue", "value", "willTurnIntoFault",
    ]

    let model: SwiftModelName
    /// Each entity's class, by entity name.
    private(set) var classes: [String: String] = [:]
    /// Each to-many relationship's method suffix (`Pages` in `addToPages`),
    /// by entity name and model name, under the entity that declares it.
    private var methodSuffixes: [String: [String: String]] = [:]
    /// The names that differ from the model's so that the source compiles,
    /// each as a sentence (`entity value: class valueObject (…)`), in the
    /// declarations' order.
    private(set) var renames: [String] = []
    /// Each property's Swift name (without backticks), by entity name and
    /// model name, under the entity that declares it.
    private var properties: [String: [String: String]] = [:]
    /// The names of the fields each entity's class declares itself.
    private var fields: [String: Set<String>] = [:]

    /// Whether the class keeps `property` in a field: an attribute does.
    static func hasField(_ property: Property) -> Bool {
        if case .attribute = property { return true }
        return false
    }

    /// The name of the field that keeps the value of the attribute whose
    /// property is named `property` (without backticks).
    static func fieldName(_ property: String) -> String { "_" + property }

    /// The names for `declarations`, whose classes are named after
    /// `representedClassNames` (by entity name, as the model file writes
    /// them), in a model named `model`.
    init(_ declarations: [Entity], representedClassNames: [String: String], model: SwiftModelName) {
        self.model = model
        // A member of this name would shadow the class inside the classes
        // (a property of a class's name is renamed instead, below).
        var shadowing = Self.memberNames
        for entity in declarations {
            for property in entity.properties {
                if case .relationship(let relationship) = property, relationship.isToMany {
                    let capitalized = property.name.prefix(1).uppercased() + property.name.dropFirst()
                    shadowing.formUnion(["addTo" + capitalized, "removeFrom" + capitalized])
                }
            }
        }
        var taken = Self.reservedTypeNames.union(SwiftIdentifier.keywords).union([model.identifier, model.objectProtocol])
        for entity in declarations {
            let written = representedClassNames[entity.name].flatMap(Self.className(written:))
            let candidates = (written.map { [$0] } ?? []) + [entity.name]
            func free(_ name: String) -> Bool { !taken.contains(name) && !shadowing.contains(name) }
            var name = candidates.first { SwiftIdentifier.isPlain($0) && free($0) }
            if name == nil {
                let base = (SwiftIdentifier.isPlain(entity.name) ? entity.name : "Entity") + "Object"
                name = sequence(first: 1) { $0 + 1 }.lazy.map { $0 == 1 ? base : "\(base)\($0)" }.first(where: free)
            }
            if let wanted = candidates.first(where: SwiftIdentifier.isPlain), wanted != name, shadowing.contains(wanted) {
                renames.append("entity \(entity.name): class \(name!), as \(wanted) is the name of a member of the classes")
            }
            classes[entity.name] = name
            taken.insert(name!)
        }
        let typeNames = Set(classes.values).union(Self.reservedTypeNames)
        let byName = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in declarations { nameProperties(of: entity, byName: byName, typeNames: typeNames) }
    }

    /// The class `representedClassName` names, without its module; nil for
    /// `NSManagedObject` (no class of its own) and for what is not a
    /// plain identifier.
    static func className(written: String) -> String? {
        let last = written.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard SwiftIdentifier.isPlain(last), last != "NSManagedObject" else { return nil }
        return last
    }

    /// Names the properties `entity` declares itself, after its ancestors'
    /// (whose names its class inherits).
    private mutating func nameProperties(of entity: Entity, byName: [String: Entity], typeNames: Set<String>) {
        guard properties[entity.name] == nil else { return }
        properties[entity.name] = [:]
        var inherited: Set<String> = []
        var seen: Set<String> = [entity.name]
        var ancestor = entity.parent.flatMap { byName[$0] }
        while let parent = ancestor, seen.insert(parent.name).inserted {
            nameProperties(of: parent, byName: byName, typeNames: typeNames)
            inherited.formUnion(properties[parent.name].map { Array($0.values) } ?? [])
            inherited.formUnion(fields[parent.name] ?? [])
            ancestor = parent.parent.flatMap { byName[$0] }
        }
        var taken = inherited.union(entity.properties.map(\.name))
        var names: [String: String] = [:]
        var ownFields: Set<String> = []
        for property in entity.properties {
            var name = property.name
            let hasField = Self.hasField(property)
            // The field of an attribute named before, or this attribute's
            // field taken by another property's name.
            let fieldTaken = hasField && (taken.contains(Self.fieldName(name)) || typeNames.contains(Self.fieldName(name)))
            if Self.reservedPropertyNames.contains(name) || typeNames.contains(name) || inherited.contains(name)
                || !SwiftIdentifier.isPlain(name) || ownFields.contains(name) || fieldTaken
            {
                name = SwiftIdentifier.isPlain(name) ? name + "_" : "property_"
                while taken.contains(name) || typeNames.contains(name) || ownFields.contains(name)
                    || (hasField && (taken.contains(Self.fieldName(name)) || typeNames.contains(Self.fieldName(name))))
                {
                    name += "_"
                }
            }
            taken.insert(name)
            if hasField {
                taken.insert(Self.fieldName(name))
                ownFields.insert(Self.fieldName(name))
            }
            names[property.name] = name
            if name != property.name {
                let model = property.name
                let why = !SwiftIdentifier.isPlain(model) ? "\(model) is not a Swift identifier"
                    : Self.reservedPropertyNames.contains(model) ? "\(model) is a member of every class"
                    : typeNames.contains(model) ? "\(model) is the name of a type"
                    : inherited.contains(model) ? "\(model) is inherited"
                    : fieldTaken ? "its field \(Self.fieldName(model)) is taken"
                    : "\(model) is the name of another property's field"
                renames.append("\(entity.name).\(model): property \(name), as \(why)")
            }
        }
        properties[entity.name] = names
        fields[entity.name] = ownFields
        // addTo…/removeFrom… of each to-many: unique in the class and its
        // ancestors, and no property's name.
        var inheritedSuffixes: Set<String> = []
        var ancestorForSuffixes = entity.parent.flatMap { byName[$0] }
        var seenForSuffixes: Set<String> = [entity.name]
        while let parent = ancestorForSuffixes, seenForSuffixes.insert(parent.name).inserted {
            inheritedSuffixes.formUnion(methodSuffixes[parent.name].map { Array($0.values) } ?? [])
            ancestorForSuffixes = parent.parent.flatMap { byName[$0] }
        }
        var suffixes: [String: String] = [:]
        var takenSuffixes = inheritedSuffixes
        let propertyNames = taken
        for property in entity.properties {
            guard case .relationship(let relationship) = property, relationship.isToMany else { continue }
            let swiftName = names[property.name] ?? property.name
            let wanted = swiftName.prefix(1).uppercased() + swiftName.dropFirst()
            var suffix = wanted
            while takenSuffixes.contains(suffix) || propertyNames.contains("addTo" + suffix) || propertyNames.contains("removeFrom" + suffix) {
                suffix += "_"
            }
            if suffix != wanted {
                renames.append("\(entity.name).\(property.name): addTo\(suffix)/removeFrom\(suffix), as addTo\(wanted) is taken")
            }
            takenSuffixes.insert(suffix)
            suffixes[property.name] = suffix
        }
        methodSuffixes[entity.name] = suffixes
    }

    /// The class of `entity`.
    func className(_ entity: String) -> String { classes[entity] ?? entity }

    /// The suffix of the `addTo…`/`removeFrom…` methods of the to-many
    /// `property`, which `entity` declares itself.
    func methodSuffix(_ property: String, declaredBy entity: String) -> String {
        if let suffix = methodSuffixes[entity]?[property] { return suffix }
        let name = propertyName(property, declaredBy: entity)
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The name of the field that keeps the attribute `property`, which
    /// `entity` declares itself.
    func fieldName(_ property: String, declaredBy entity: String) -> String {
        Self.fieldName(propertyName(property, declaredBy: entity))
    }

    /// The Swift name of the property `property`, which `entity` declares
    /// itself, without backticks.
    func propertyName(_ property: String, declaredBy entity: String) -> String {
        properties[entity]?[property] ?? property
    }
}
