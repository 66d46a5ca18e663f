import Foundation

/// A label given as `--label key=value`: a Prometheus label name
/// (`[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__`) and a value that is
/// not empty. Names that Faultline sets itself from the report or another
/// option are refused with the way to set them.
public struct MetricLabel: Equatable, Hashable, Sendable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Label names `publish --label` cannot set, and why.
    public static let reservedForPublishing: [String: String] = [
        "job": "the job is --job's",
        "instance": "the Pushgateway sets instance",
        "scenario": "scenario comes from the report",
        "scale": "scale comes from the report's configuration",
    ].merging(ReportInfoLabel.allCases.filter { $0 != .commit }.map { ($0.rawValue, "\($0.rawValue) comes from the report (faultline_report_info)") }) { a, _ in a }

    /// Label names a clean-up's `--label` cannot match on, and why.
    public static let reservedForMatching: [String: String] = ["job": "the job is --job's"]

    /// Parses `key=value`; the error names the argument.
    public init(argument: String, option: String = "--label", reserved: [String: String] = reservedForPublishing) throws(PublishError) {
        let subject = "\(option) \(argument)"
        guard let equals = argument.firstIndex(of: "=") else { throw PublishError(subject, "expected key=value") }
        let name = String(argument[..<equals])
        let value = String(argument[argument.index(after: equals)...])
        try Self.check(name: name, subject: subject)
        guard !value.isEmpty else { throw PublishError(subject, "an empty value: give one, or leave the label out") }
        if let reason = reserved[name] { throw PublishError(subject, "\(name) cannot be set: \(reason)") }
        self.init(name: name, value: value)
    }

    /// Checks a label name against Prometheus' rule.
    static func check(name: String, subject: String) throws(PublishError) {
        guard let first = name.unicodeScalars.first else { throw PublishError(subject, "an empty label name") }
        let isLetter = { (scalar: Unicode.Scalar) in ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" }
        guard isLetter(first), name.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) }) else {
            throw PublishError(subject, "\(name) is not a Prometheus label name (letters, digits and _, not starting with a digit)")
        }
        guard !name.hasPrefix("__") else { throw PublishError(subject, "names starting with __ are Prometheus' own") }
    }

    /// The labels of several `--label` arguments; a name given twice is refused.
    public static func parse(
        _ arguments: [String], option: String = "--label", reserved: [String: String] = reservedForPublishing
    ) throws(PublishError) -> [MetricLabel] {
        var labels: [MetricLabel] = []
        for argument in arguments {
            let label = try MetricLabel(argument: argument, option: option, reserved: reserved)
            if labels.contains(where: { $0.name == label.name }) {
                throw PublishError("\(option) \(argument)", "\(label.name) is given twice")
            }
            labels.append(label)
        }
        return labels
    }
}
