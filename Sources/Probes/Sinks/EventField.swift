/// One field of one kind of event, `fault.missReason`: the unit in which a
/// sink that writes events out says what it leaves out (each such sink's
/// `fieldsLeftOut`, checked by a test against what it writes).
public struct EventField: Hashable, Sendable, CustomStringConvertible {
    /// The event's kind.
    public let kind: EventKind
    /// The field's property name on the event's type (`missReason`).
    public let name: String

    /// The field `name` of events of `kind`.
    public init(_ kind: EventKind, _ name: String) {
        self.kind = kind
        self.name = name
    }

    /// `fault.missReason`.
    public var description: String { "\(kind.rawValue).\(name)" }
}

extension EventField {
    /// Fields left out by a sink, each group of them for one reason: how a
    /// sink builds its `fieldsLeftOut`.
    public static func leftOut(_ groups: [(reason: String, fields: [EventKind: [String]])]) -> [EventField: String] {
        var all: [EventField: String] = [:]
        for group in groups {
            for (kind, names) in group.fields {
                for name in names { all[EventField(kind, name)] = group.reason }
            }
        }
        return all
    }
}
