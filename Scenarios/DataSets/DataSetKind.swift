import Foundation
import ObjectGraph

/// The data sets scenarios run on.
public enum DataSetKind: String, Sendable, CaseIterable {
    /// People, selfies and social networks; every selfie related to every
    /// person and every network (500 of each at scale 1, 250,000 rows in
    /// each join table).
    case selfies
    /// Fireballs (10,000 at scale 1) with a timestamp, energies, position
    /// and velocity, in groups (100 at scale 1) that count them in a
    /// derived attribute.
    case fireballs

    public var model: Model {
        switch self {
        case .selfies: SelfiesDataSet.model
        case .fireballs: FireballsDataSet.model
        }
    }

    /// Bumped when the generator changes what it builds: cached files of
    /// another version are not used.
    public var generatorVersion: Int {
        switch self {
        case .selfies: 1
        case .fireballs: 1
        }
    }

    /// Builds the data set into an empty store, in one transaction;
    /// `step(done, total)` follows the work, at least every
    /// ``rowsPerStep`` rows, and stops it by throwing.
    public func build(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void = { _, _ in }) throws {
        switch self {
        case .selfies: try SelfiesDataSet.build(into: store, scale: scale, seed: seed, step: step)
        case .fireballs: try FireballsDataSet.build(into: store, scale: scale, seed: seed, step: step)
        }
    }

    /// Row counts a built file must have, by table.
    public func expectedRows(scale: Double) -> [String: Int] {
        switch self {
        case .selfies: SelfiesDataSet.expectedRows(scale: scale)
        case .fireballs: FireballsDataSet.expectedRows(scale: scale)
        }
    }

    /// The most rows a build writes between two steps: small enough that a
    /// stop is seen within a few milliseconds.
    static let rowsPerStep = 10_000

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
