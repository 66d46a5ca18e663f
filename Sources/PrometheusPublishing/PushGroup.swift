import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A group of a Pushgateway: the job and the grouping labels every metric
/// pushed to it carries. A push replaces what the group held; a delete
/// removes it.
public struct PushGroup: Equatable, Sendable {
    public let job: String
    /// The grouping labels besides the job, by name.
    public let labels: [MetricLabel]

    public init(job: String, labels: [MetricLabel]) {
        self.job = job
        self.labels = labels.sorted { $0.name < $1.name }
    }

    /// The group as a Pushgateway path: `/metrics/job@base64/…` and
    /// `/NAME@base64/VALUE` per label. Every value is base64url-encoded, so
    /// that a `/` in a branch name stays in its value; an empty value is
    /// `=`, as the Pushgateway asks.
    public var path: String {
        var path = "/metrics/job@base64/" + Self.base64URL(job)
        for label in labels { path += "/\(label.name)@base64/" + Self.base64URL(label.value) }
        return path
    }

    static func base64URL(_ text: String) -> String {
        guard !text.isEmpty else { return "=" }
        return Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    /// `{job=faultline branch=main runner=ci scale=1}`, for messages.
    public var description: String {
        "{" + (["job=\(job)"] + labels.map { "\($0.name)=\($0.value)" }).joined(separator: " ") + "}"
    }

    /// Removes the group from the Pushgateway (HTTP DELETE): its metrics
    /// are no longer scraped. A group that is not there is no error.
    public func delete(from gateway: ServerAddress) throws(PublishError) {
        var request = URLRequest(url: gateway.appending(encodedPath: path))
        request.httpMethod = "DELETE"
        let answer = try HTTPExchange.send(request, to: gateway, doing: "delete \(description)")
        guard (200..<300).contains(answer.status) else {
            let detail = answer.firstLine
            throw PublishError(
                gateway.option, "\(gateway): the Pushgateway refused to delete \(description): HTTP \(answer.status)\(detail.isEmpty ? "" : ": \(detail)")")
        }
    }
}
