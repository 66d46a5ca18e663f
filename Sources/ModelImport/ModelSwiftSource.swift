import Foundation
import ObjectGraph

/// An imported model as Swift source (`perf-run model import --swift`)
/// that compiles as it is, whatever the model's names and values hold
/// (strings escaped, infinities and NaN spelled as Swift spells them):
/// the model with a typed class for each entity
/// (``render(classesOf:representedClassNames:modelName:)``, what the
/// command prints), or the model's declaration alone (``render(_:name:)``).
public enum ModelSwiftSource {
    /// The source declaring `let <name> = try! Model([...])`, the entities'
    /// objects of class `ManagedObject` (read with `value(forKey:)` and
    /// `self[attribute:]`); `name` must be a Swift identifier. `import
    /// Foundation` comes first when a value needs it (a date, a UUID,
    /// data). ``render(classesOf:representedClassNames:modelName:)`` adds
    /// a typed class for each entity.
    public static func render(_ declarations: [Entity], name: String = "model") -> String {
        let needsFoundation = declarations.contains { entity in entity.properties.contains(where: defaultNeedsFoundation) }
        var lines = (needsFoundation ? ["import Foundation"] : []) + ["import ObjectGraph", "", "let \(name) = try! Model(["]
        for entity in declarations { lines += declarationLines(entity, indent: "    ") }
        lines.append("])")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether the property's default value is written with a Foundation
    /// type (a date, a UUID, data).
    static func defaultNeedsFoundation(_ property: Property) -> Bool {
        guard case .attribute(let attribute) = property else { return false }
        switch attribute.defaultValue {
        case .date, .uuid, .data: return true
        default: return false
        }
    }

    /// The lines of `Entity(…)` declaring `entity` in a `Model([…])`,
    /// with `objectType` (a class's name) when the entity has a class.
    static func declarationLines(_ entity: Entity, objectType: String? = nil, indent: String) -> [String] {
        let type = objectType.map { ", \($0).self" } ?? ""
        let inheritance = (entity.parent.map { ", parent: \(quoted($0))" } ?? "") + (entity.isAbstract ? ", abstract: true" : "")
        var lines = ["\(indent)Entity(\(quoted(entity.name))\(type)\(inheritance), properties: ["]
        for property in entity.properties { lines.append("\(indent)    \(render(property)),") }
        let constraints = entity.uniquenessConstraints.isEmpty
            ? "" : ", uniquenessConstraints: [" + entity.uniquenessConstraints.map { "[" + $0.map(quoted).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        lines.append("\(indent)]\(constraints)),")
        return lines
    }

    static func render(_ property: Property) -> String {
        switch property {
        case .attribute(let a):
            if let derivation = a.derivation {
                let how = switch derivation {
                case .count(let relationship): ".count(\(quoted(relationship)))"
                case .sum(let relationship, let attribute): ".sum(\(quoted(relationship)), \(quoted(attribute)))"
                case .lowercase(let attribute): ".lowercase(\(quoted(attribute)))"
                }
                return ".derived(\(quoted(a.name)), .\(a.type.rawValue), \(how)\(a.isIndexed ? ", indexed: true" : ""))"
            }
            var text = ".attribute(\(quoted(a.name)), .\(a.type.rawValue)"
            if a.isOptional { text += ", optional: true" }
            if !a.defaultValue.isNull { text += ", default: \(literal(a.defaultValue))" }
            if a.isIndexed { text += ", indexed: true" }
            return text + ")"
        case .relationship(let r):
            let rule = r.deleteRule == .nullify ? "" : ", deleteRule: .\(r.deleteRule.rawValue)"
            if r.isToMany {
                return ".toMany(\(quoted(r.name)), \(quoted(r.destinationName)), inverse: \(r.inverseName.map(quoted) ?? "nil")\(rule))"
            }
            let inverse = r.inverseName.map { ", inverse: \(quoted($0))" } ?? ""
            return ".toOne(\(quoted(r.name)), \(quoted(r.destinationName))\(inverse)\(rule)\(r.isOptional ? "" : ", optional: false"))"
        }
    }

    /// A value as a Swift expression of type `Value`.
    static func literal(_ value: Value) -> String {
        switch value {
        case .null: ".null"
        case .integer(let v): ".integer(\(v))"
        case .double(let v): ".double(\(literal(v)))"
        case .bool(let v): ".bool(\(v))"
        case .string(let v): ".string(\(quoted(v)))"
        case .uuid(let v): ".uuid(UUID(uuidString: \(quoted(v.uuidString)))!)"
        case .date(let v): ".date(Date(timeIntervalSinceReferenceDate: \(literal(v.timeIntervalSinceReferenceDate))))"
        case .data(let v): ".data(Data(base64Encoded: \(quoted(v.base64EncodedString())))!)"
        }
    }

    /// A `Double` as a Swift expression: `.infinity`, `-.infinity` and
    /// `.nan` for the values no literal spells, a subnormal one as the
    /// exact hexadecimal literal (`0x1p-1074`: its decimal form makes the
    /// compiler warn of underflow), otherwise the shortest literal that
    /// reads back as the same value (`0.1`, `1e-05`, `-0.0`).
    static func literal(_ value: Double) -> String {
        if value.isNaN { return ".nan" }
        if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
        if value.isSubnormal {
            return "\(value < 0 ? "-" : "")0x\(String(value.significandBitPattern, radix: 16))p-1074"
        }
        return "\(value)"
    }

    /// A Swift string literal of `text`: quotes and backslashes escaped,
    /// and every control, format and separator character (a NUL, DEL, a
    /// bidirectional override, U+2028) written as `\u{…}`, so that the
    /// literal stays on its line and shows what it holds.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
