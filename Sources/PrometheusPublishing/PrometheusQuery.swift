import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Prometheus' HTTP query API (`/api/v1/query`, an instant query), its
/// answer decoded: a vector of series, each its labels and one value.
public struct PrometheusQuery: Sendable {
    public let server: ServerAddress

    public init(server: ServerAddress) { self.server = server }

    /// One series of an instant vector.
    public struct Series: Equatable, Sendable {
        public var labels: [String: String]
        public var value: Double
    }

    /// The answer's JSON (`{"status":"success","data":{"resultType":"vector","result":[…]}}`).
    struct Answer: Decodable {
        struct Data: Decodable {
            let resultType: String
            let result: [Result]
        }

        struct Result: Decodable {
            let metric: [String: String]
            let value: Sample
        }

        /// `[unix time, "value"]`.
        struct Sample: Decodable {
            let value: String

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Double.self)
                value = try container.decode(String.self)
            }
        }

        let status: String
        let data: Data?
        let errorType: String?
        let error: String?
    }

    /// Runs `query` (PromQL) at the server's present time. Sent as a form
    /// (POST), so that no character of the query is read as another.
    public func instant(_ query: String) throws(PublishError) -> [Series] {
        var request = URLRequest(url: server.appending(encodedPath: "/api/v1/query"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("query=\(HTTPExchange.percentEncoded(query))".utf8)
        let answer = try HTTPExchange.send(request, to: server, doing: "query")
        let decoded: Answer
        do {
            decoded = try JSONDecoder().decode(Answer.self, from: answer.body)
        } catch {
            let detail = answer.firstLine
            throw PublishError(
                server.option, "\(server): not Prometheus' query API: HTTP \(answer.status)\(detail.isEmpty ? "" : ": \(detail)")")
        }
        guard decoded.status == "success", let data = decoded.data else {
            throw PublishError(
                server.option,
                "\(server): Prometheus refused the query (\(decoded.errorType ?? "HTTP \(answer.status)")): \(decoded.error ?? "no reason given")")
        }
        guard data.resultType == "vector" else {
            throw PublishError(server.option, "\(server): expected a vector from Prometheus, got a \(data.resultType)")
        }
        return data.result.compactMap { result in
            // Prometheus writes NaN and ±Inf as such; anything else is a number.
            guard let value = Double(result.value.value) else { return nil }
            return Series(labels: result.metric, value: value)
        }
    }

    /// `text` as a PromQL string literal: in double quotes, with
    /// backslash, quote and line breaks escaped.
    public static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
