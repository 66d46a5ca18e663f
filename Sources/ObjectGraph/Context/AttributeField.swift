/// The stored property a typed class keeps one attribute's value in: a
/// cache of the object's values (the engine's canonical storage), valid
/// while the object's ``TypedFields`` say so.
///
/// A class declares one per attribute, unchecked for exclusivity (the
/// engine and the object's context are confined to one queue), and reads
/// and writes the attribute through it:
///
/// ```swift
/// final class Person: ManagedObject, EntityNamed {
///     static let entityName = "Person"
///     @inlinable var name: String {
///         get { attribute("name", at: 0, in: &_name) }
///         set { setAttribute("name", at: 0, to: newValue, in: &_name) }
///     }
///     @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()
/// }
/// ```
///
/// `at:` is the attribute's index among its entity's attributes
/// (inherited ones first, then the entity's own, in declaration order);
/// an index that does not match the key's is never cached, so a mistake
/// costs speed, not correctness. Give each attribute one field: two
/// fields for one index would each believe the other's fill.
/// `perf-run model import --swift` generates classes this way.
public struct AttributeField<Stored: AttributeValue> {
    /// The value, once a read or a write filled it; current only while the
    /// object's field bit is set.
    @usableFromInline var value: Stored?

    /// An empty field.
    @inlinable public init() {}
}
