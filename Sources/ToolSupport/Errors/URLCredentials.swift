/// The credentials in the text of a URL (`scheme://user:password@host`),
/// found whether or not the text parses as a URL: a message that quotes an
/// address it cannot use (a missing scheme, an unclosed `[`, a stray
/// space) must not print its password.
///
/// The credentials are what comes before the last `@` of the address's
/// authority: after `scheme://` (or `//`, or from the start when there is
/// no scheme) and before the first `/`, `?` or `#`. When that part holds no
/// `@` but the text does before its first `?` or `#` (`http://u:pa/ss@host`,
/// which no URL reader splits the same way), everything before that `@`
/// counts as credentials: a message may hide too much, never a password.
public enum URLCredentials {
    /// What the credentials become: the whole user information (a user
    /// name may be a token: `https://TOKEN@host`), or only its password.
    public enum Hiding: Sendable {
        /// `http://***@host`.
        case userAndPassword
        /// `postgresql://user:***@host`; a user without a password stays.
        case password
    }

    /// `text` with its credentials replaced by `***`.
    public static func redacted(_ text: String, hiding: Hiding = .userAndPassword) -> String {
        guard let range = range(in: text, hiding: hiding) else { return text }
        var redacted = text
        redacted.replaceSubrange(range, with: "***")
        return redacted
    }

    /// A command-line argument with its credentials replaced by `***`,
    /// `--option=URL` as well as a bare URL.
    public static func redactingArgument(_ argument: String, hiding: Hiding = .userAndPassword) -> String {
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            return String(argument[...equals]) + redacted(String(argument[argument.index(after: equals)...]), hiding: hiding)
        }
        return redacted(argument, hiding: hiding)
    }

    /// The range of `text` that ``redacted(_:hiding:)`` replaces, or nil
    /// when it holds no credentials (a user alone, with `.password`).
    public static func range(in text: String, hiding: Hiding) -> Range<String.Index>? {
        guard let userInformation = userInformation(in: text) else { return nil }
        switch hiding {
        case .userAndPassword:
            return userInformation
        case .password:
            guard let colon = text[userInformation].firstIndex(of: ":") else { return nil }
            return text.index(after: colon)..<userInformation.upperBound
        }
    }

    /// The user information (`user:password`) of the address in `text`.
    static func userInformation(in text: String) -> Range<String.Index>? {
        let start: String.Index
        if let separator = text.range(of: "://"),
            text[..<separator.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            start = separator.upperBound
        } else if text.hasPrefix("//") {
            start = text.index(text.startIndex, offsetBy: 2)
        } else {
            start = text.startIndex
        }
        let rest = text[start...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") { return start..<at }
        let queryStart = rest.firstIndex { "?#".contains($0) } ?? rest.endIndex
        if let at = rest[..<queryStart].lastIndex(of: "@") { return start..<at }
        return nil
    }
}
