import Foundation
import ObjectGraph

/// An imported model as Swift source for a scenario package
/// (`perf-run model import --swift`): one `Model` declaration.
public enum ModelSwiftSource {
    public static func render(_ declarations: [Entity], name: String = "model") -> String {
        var lines = ["import ObjectGraph", "", "let \(name) = try! Model(["]
        for entity in declarations {
            lines.append("    Entity(\(quoted(entity.name)), properties: [")
            for property in entity.properties { lines.append("        \(render(property)),") }
            let constraints = entity.uniquenessConstraints.isEmpty
                ? "" : ", uniquenessConstraints: [" + entity.uniquenessConstraints.map { "[" + $0.map(quoted).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
            lines.append("    ]\(constraints)),")
        }
        lines.append("])")
        return lines.joined(separator: "\n") + "\n"
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
                return ".toMany(\(quoted(r.name)), \(quoted(r.destinationName)), inverse: \(quoted(r.inverseName ?? ""))\(rule))"
            }
            let inverse = r.inverseName.map { ", inverse: \(quoted($0))" } ?? ""
            return ".toOne(\(quoted(r.name)), \(quoted(r.destinationName))\(inverse)\(rule)\(r.isOptional ? "" : ", optional: false"))"
        }
    }

    /// A value as a Swift expression.
    static func literal(_ value: Value) -> String {
        switch value {
        case .null: ".null"
        case .integer(let v): ".integer(\(v))"
        case .double(let v): ".double(\(v))"
        case .bool(let v): ".bool(\(v))"
        case .string(let v): ".string(\(quoted(v)))"
        case .uuid(let v): ".uuid(UUID(uuidString: \(quoted(v.uuidString)))!)"
        case .date(let v): ".date(Date(timeIntervalSince1970: \(v.timeIntervalSince1970)))"
        case .data(let v): ".data(Data(base64Encoded: \(quoted(v.base64EncodedString())))!)"
        }
    }

    /// A Swift string literal.
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
                if scalar.value < 0x20 { result += "\\u{\(String(scalar.value, radix: 16))}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }
}
