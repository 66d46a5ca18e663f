import Foundation
import ObjectGraph

/// One Core Data attribute as a Faultline property: its type, its default
/// and its derivation, with a note for what changed and a reason for what
/// cannot be taken.
extension CoreDataModelImport {
    /// Why an attribute is not imported.
    struct Unmapped: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The property for `attribute`, and a note of what changed on the way
    /// (a type stored as another, a default that could not be taken).
    static func map(_ attribute: CoreDataModelXML.Attribute, indexed: Bool) -> Result<(Property, String?), Unmapped> {
        var notes: [String] = []
        let type: AttributeType
        switch attribute.type {
        case "Integer 16": type = .int16
        case "Integer 32": type = .int32
        case "Integer 64": type = .int64
        case "Double": type = .double
        case "Float", "Decimal":
            type = .double
            notes.append("\(attribute.type) stored as a double")
        case "String": type = .string
        case "Boolean": type = .bool
        case "Date": type = .date
        case "Binary": type = .data
        case "UUID": type = .uuid
        case "URI":
            type = .string
            notes.append("URI stored as a string")
        case "Transformable": return .failure(Unmapped("transformable: a value only the app's transformer can read"))
        case "ObjectID": return .failure(Unmapped("an object ID attribute: not modelled"))
        case "Composite": return .failure(Unmapped("a composite attribute: not modelled"))
        default: return .failure(Unmapped("attribute type \(attribute.type): not modelled"))
        }
        if attribute.isTransient {
            return .failure(Unmapped("transient: Core Data keeps it in memory only, so no column stores it"))
        }
        if let expression = attribute.derivation {
            guard let derivation = derivation(expression) else {
                return .failure(Unmapped("derived as \(expression.isEmpty ? "(no expression)" : expression): Faultline derives only @count, @sum and lowercase"))
            }
            return .success((.derived(attribute.name, type, derivation, indexed: indexed), notes.isEmpty ? nil : notes.joined(separator: "; ")))
        }
        var value = Value.null
        switch defaultValue(of: attribute, type) {
        case .none: break
        case .some(.success(let parsed)): value = parsed
        case .some(.failure(let dropped)): notes.append(dropped.description)
        }
        return .success((
            .attribute(attribute.name, type, optional: attribute.isOptional, default: value, indexed: indexed),
            notes.isEmpty ? nil : notes.joined(separator: "; ")))
    }

    /// The default `attribute` declares as a value of `type`: nil when it
    /// declares none, a failure (its note) when it declares one that
    /// cannot be taken. A Date's default is `defaultDateTimeInterval`
    /// (seconds since 2001-01-01, as Core Data keeps it); its
    /// `defaultValueString` is read only when there is no interval.
    static func defaultValue(of attribute: CoreDataModelXML.Attribute, _ type: AttributeType) -> Result<Value, Unmapped>? {
        if type == .date, let interval = attribute.defaultDateTimeInterval {
            guard let seconds = Double(interval), seconds.isFinite else {
                return .failure(Unmapped("default date interval \(interval) not imported: not a number of seconds"))
            }
            return .success(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        }
        guard let text = attribute.defaultValue else { return nil }
        if let value = defaultValue(text, type) { return .success(value) }
        let why = switch type {
        case .data: "Faultline takes no default for binary data"
        case .date: "not a date written yyyy-MM-dd HH:mm:ss ±zzzz"
        default: "not a \(type.rawValue)"
        }
        return .failure(Unmapped("default \(text) not imported: \(why)"))
    }

    /// `text` (a `defaultValueString`) as a value of `type`, nil when it
    /// is not one.
    static func defaultValue(_ text: String, _ type: AttributeType) -> Value? {
        switch type {
        case .int16, .int32, .int64: Int64(text).map(Value.integer)
        case .double: Double(text).map(Value.double)
        case .bool:
            switch text.uppercased() {
            case "YES", "TRUE", "1": .bool(true)
            case "NO", "FALSE", "0": .bool(false)
            default: nil
            }
        case .string: .string(text)
        case .uuid: UUID(uuidString: text).map(Value.uuid)
        case .date: peopleDateFormatter().date(from: text).map(Value.date)
        case .data: nil
        }
    }

    /// The form Xcode writes a date default for people in
    /// (`2013-04-23 12:00:00 +0000`).
    static func peopleDateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter
    }

    /// `people.@count`, `items.@sum.price`, `lowercase:(name)` (Core Data's
    /// derivation expressions) as Faultline derivations.
    static func derivation(_ expression: String) -> Derivation? {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("lowercase:(") && trimmed.hasSuffix(")") {
            return .lowercase(String(trimmed.dropFirst("lowercase:(".count).dropLast()))
        }
        let parts = trimmed.split(separator: ".").map(String.init)
        if parts.count == 2, parts[1] == "@count" { return .count(parts[0]) }
        if parts.count == 3, parts[1] == "@sum" { return .sum(parts[0], parts[2]) }
        return nil
    }

    /// Core Data's deletion rule as Faultline's (`Nullify` when unknown).
    static func deleteRule(_ text: String) -> DeleteRule {
        switch text {
        case "Cascade": .cascade
        case "Deny": .deny
        case "No Action": .noAction
        default: .nullify
        }
    }
}
