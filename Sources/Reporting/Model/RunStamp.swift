import Foundation

extension Report {
    /// A run's own identifier and time, stamped by `perf-run run` into its
    /// report: the history store keeps a run by this identifier
    /// (``RunIdentity/of(_:bytes:)``), so that adding one report twice keeps
    /// one run, and two runs, even of the same commit on the same runner,
    /// are never taken for one.
    public struct RunStamp: Codable, Equatable, Sendable {
        /// Unique to the run: a random UUID, in lower case.
        public var identifier: String
        /// When the run ended and its report was made; in JSON, ISO 8601 in
        /// UTC to the microsecond (`2025-06-01T12:00:00.123456Z`).
        public var time: Date

        public init(identifier: String, time: Date) {
            self.identifier = identifier
            self.time = time
        }

        /// A new stamp: a random identifier, and now.
        public static func now() -> RunStamp {
            RunStamp(identifier: UUID().uuidString.lowercased(), time: HistoryTime.truncated(Date()))
        }

        private enum CodingKeys: String, CodingKey { case identifier, time }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            identifier = try container.decode(String.self, forKey: .identifier)
            if identifier.isEmpty {
                throw DecodingError.dataCorruptedError(forKey: .identifier, in: container, debugDescription: "an empty run identifier")
            }
            let text = try container.decode(String.self, forKey: .time)
            guard let time = HistoryTime.date(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .time, in: container, debugDescription: "not a time in ISO 8601 (2025-06-01T12:00:00.123456Z): \(text)")
            }
            self.time = time
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(identifier, forKey: .identifier)
            try container.encode(HistoryTime.text(time), forKey: .time)
        }
    }
}
