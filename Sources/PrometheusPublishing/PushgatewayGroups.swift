import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The groups a Pushgateway holds, from its API (`GET /api/v1/metrics`),
/// with when each was last pushed (the Pushgateway's own
/// `push_time_seconds`): what an age-based clean-up
/// (`perf-run publish --delete-older-than 30d`) chooses from.
public struct PushgatewayGroups: Sendable {
    /// One group and its last successful push.
    public struct Listed: Equatable, Sendable {
        public let group: PushGroup
        /// Nil when the Pushgateway gave no time (it always does for a pushed group).
        public let pushedAt: Date?
        /// Names of the metrics it holds besides the Pushgateway's own.
        public let metricNames: [String]
    }

    public let groups: [Listed]

    public init(groups: [Listed]) { self.groups = groups }

    /// Lists the groups of `gateway`.
    public static func list(on gateway: ServerAddress) throws(PublishError) -> PushgatewayGroups {
        var request = URLRequest(url: gateway.appending(encodedPath: "/api/v1/metrics"))
        request.httpMethod = "GET"
        let answer = try HTTPExchange.send(request, to: gateway, doing: "list the groups")
        do {
            return try PushgatewayGroups(apiAnswer: answer.body)
        } catch {
            let detail = answer.firstLine
            throw PublishError(
                gateway.option, "\(gateway): not a Pushgateway's /api/v1/metrics: HTTP \(answer.status)\(detail.isEmpty ? "" : ": \(detail)")")
        }
    }

    /// The Pushgateway's metrics that are its own, not pushed ones.
    static let ownMetrics: Set<String> = ["push_time_seconds", "push_failure_time_seconds"]

    struct NotTheAPI: Error {}

    /// Decodes the API's answer:
    /// `{"status":"success","data":[{"labels":{…},"push_time_seconds":{"metrics":[{"value":"…"}]},…}]}`.
    public init(apiAnswer body: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any], object["status"] as? String == "success",
            let data = object["data"] as? [[String: Any]]
        else { throw NotTheAPI() }
        groups = try data.map { entry in
            guard var labels = entry["labels"] as? [String: String], let job = labels.removeValue(forKey: "job") else { throw NotTheAPI() }
            let pushed = ((entry["push_time_seconds"] as? [String: Any])?["metrics"] as? [[String: Any]])?.first?["value"] as? String
            let names = entry.keys.filter { key in
                key != "labels" && !Self.ownMetrics.contains(key) && entry[key] is [String: Any]
            }.sorted()
            return Listed(
                group: PushGroup(job: job, labels: labels.map { MetricLabel(name: $0.key, value: $0.value) }),
                pushedAt: pushed.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }, metricNames: names)
        }
    }

    /// The groups of `job` that hold Faultline's metrics, carry every
    /// label of `matching`, and were last pushed longer than `age` before
    /// `now`, oldest first.
    public func stale(job: String, matching: [MetricLabel], olderThan age: PrometheusDuration, now: Date) -> [Listed] {
        let cutoff = now.addingTimeInterval(-age.seconds)
        return groups.filter { listed in
            guard listed.group.job == job, let pushed = listed.pushedAt, pushed < cutoff else { return false }
            guard listed.metricNames.contains(where: { $0.hasPrefix(FaultlineMetric.namespace + "_") }) else { return false }
            return matching.allSatisfy { label in listed.group.labels.contains(label) }
        }.sorted { ($0.pushedAt ?? .distantPast) < ($1.pushedAt ?? .distantPast) }
    }
}
