import Foundation
import Probes

/// The shape of the comparison's settings files, checked before they are
/// decoded, so that a misspelled key is an error with its key path instead
/// of a setting silently left out (`{"counters": {"sqlStatments": …}}`).
enum ComparisonSettingsCheck {
    /// The first problem of a thresholds file, as `key.path: what is wrong`.
    static func thresholdsProblem(_ object: Any) -> String? {
        guard let top = object as? [String: Any] else { return "not a JSON object (counters, scenarios, slopes)" }
        for (key, value) in top.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "counters":
                if let problem = countersProblem(value, at: "counters") { return problem }
            case "scenarios":
                guard let scenarios = value as? [String: Any] else { return "scenarios: not an object of scenario names" }
                for (name, counters) in scenarios.sorted(by: { $0.key < $1.key }) {
                    if let problem = countersProblem(counters, at: "scenarios.\(name)") { return problem }
                }
            case "slopes":
                guard let fields = value as? [String: Any] else { return "slopes: not an object (relative, absolute)" }
                for (field, number) in fields.sorted(by: { $0.key < $1.key }) {
                    guard ["relative", "absolute"].contains(field) else { return "slopes.\(field): unknown key (relative, absolute)" }
                    guard let value = number as? Double, value >= 0, value.isFinite else {
                        return "slopes.\(field): a number of 0 or more, not \(number)"
                    }
                }
            default:
                return "\(key): unknown key (counters, scenarios, slopes)"
            }
        }
        return nil
    }

    private static func countersProblem(_ value: Any, at path: String) -> String? {
        guard let counters = value as? [String: Any] else { return "\(path): not an object of counter names" }
        let names = CounterName.allCases.map(\.rawValue)
        for (name, allowance) in counters.sorted(by: { $0.key < $1.key }) {
            guard names.contains(name) else { return "\(path).\(name): unknown counter (\(names.sorted().joined(separator: ", ")))" }
            guard let fields = allowance as? [String: Any] else { return "\(path).\(name): not an object (absolute, relative)" }
            for (field, number) in fields.sorted(by: { $0.key < $1.key }) {
                switch field {
                case "absolute":
                    guard let whole = number as? Int, whole >= 0 else {
                        return "\(path).\(name).absolute: a whole number of 0 or more, not \(number)"
                    }
                case "relative":
                    guard let fraction = number as? Double, fraction >= 0, fraction.isFinite else {
                        return "\(path).\(name).relative: a number of 0 or more, not \(number)"
                    }
                default:
                    return "\(path).\(name).\(field): unknown key (absolute, relative)"
                }
            }
        }
        return nil
    }

    /// The first problem of a noise floor file (not an A/A comparison).
    static func noiseFloorProblem(_ object: Any) -> String? {
        guard let top = object as? [String: Any] else { return "not a JSON object (relative, absolute, scenarios)" }
        for (key, value) in top.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "relative", "absolute":
                guard let number = value as? Double, number >= 0, number.isFinite else {
                    return "\(key): a number of 0 or more, not \(value)"
                }
            case "scenarios":
                guard let scenarios = value as? [String: Any] else { return "scenarios: not an object of scenario names" }
                for (name, floor) in scenarios.sorted(by: { $0.key < $1.key }) {
                    guard let number = floor as? Double, number >= 0, number.isFinite else {
                        return "scenarios.\(name): a number of 0 or more, not \(floor)"
                    }
                }
            default:
                return "\(key): unknown key (relative, absolute, scenarios)"
            }
        }
        return nil
    }
}
