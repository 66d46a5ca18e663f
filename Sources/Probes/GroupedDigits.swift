extension Int {
    /// The number with its digits grouped by thousands, as messages print
    /// counts: `12,345`.
    public var groupedDigits: String {
        let digits = String(magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}
