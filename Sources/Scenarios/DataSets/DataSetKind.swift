import Foundation
import ObjectGraph

/// A data set scenarios run on: its model, how to build it at a scale from
/// a seed, and the rows a built file must have. The runner builds it once
/// per (name, scale, seed, generator version), caches and verifies it.
///
/// Faultline's built-in ones (`selfies`, `fireballs`) are in BuiltInScenarios;
/// an application declares its own with
/// ``init(name:model:generatorVersion:expectedRows:build:)``.
public struct DataSetKind: Sendable, Hashable, CustomStringConvertible {
    /// Names the cached files: letters, digits and `-`.
    public let name: String
    public let model: Model
    /// Bumped when the generator changes what it builds: cached files of
    /// another version are not used.
    public let generatorVersion: Int
    private let rows: @Sendable (Double) -> [String: Int]
    private let builder: @Sendable (Store, Double, UInt64, (Int, Int) throws -> Void) throws -> Void

    /// - Parameters:
    ///   - expectedRows: the rows of each table a file built at a scale has
    ///     (the cache checks them before it reuses a file).
    ///   - build: builds the data into an empty store at a scale from a
    ///     seed, calling `step(done, total)` now and then (it throws to stop).
    public init(
        name: String, model: Model, generatorVersion: Int = 1, expectedRows: @escaping @Sendable (Double) -> [String: Int],
        build: @escaping @Sendable (Store, Double, UInt64, (Int, Int) throws -> Void) throws -> Void
    ) {
        self.name = name
        self.model = model
        self.generatorVersion = generatorVersion
        self.rows = expectedRows
        self.builder = build
    }

    public var description: String { name }

    public static func == (lhs: DataSetKind, rhs: DataSetKind) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Builds the data set into an empty store, in one transaction;
    /// `step(done, total)` follows the work, at least every
    /// ``rowsPerStep`` rows, and stops it by throwing.
    public func build(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void = { _, _ in }) throws {
        try builder(store, scale, seed, step)
    }

    /// Row counts a built file must have, by table.
    public func expectedRows(scale: Double) -> [String: Int] { rows(scale) }

    /// The most rows a build writes between two steps: small enough that a
    /// stop is seen within a few milliseconds.
    public static let rowsPerStep = 10_000

    /// `max(1, round(base × scale))`.
    public static func count(_ base: Int, scale: Double) -> Int {
        max(1, Int((Double(base) * scale).rounded()))
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same data.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
