/// Why a model file is not well-formed XML, in words.
///
/// Foundation's `XMLParser` on Linux reports libxml2's error number and no
/// message (and its `XMLParser.ErrorCode` cases are numbered one below
/// libxml2's there, so they cannot be trusted). The numbers are libxml2's
/// `xmlParserErrors`, which are also the raw values of Apple's
/// `NSXMLParserError`: this type turns the ones a hand-edited or truncated
/// model file meets into a sentence, and names any other by its number.
public struct XMLSyntaxError: Equatable, Sendable {
    /// libxml2's error number (`xmlParserErrors`).
    public let code: Int
    /// The element being read where the error is, when there is one
    /// (the innermost open element).
    public let openElement: String?

    public init(code: Int, openElement: String? = nil) {
        self.code = code
        self.openElement = openElement
    }

    /// Whether libxml2 reports this number as a warning, not an error: it
    /// does not make the file unreadable.
    public var isWarning: Bool { Self.warnings.contains(code) }

    /// `XML_WAR_UNDECLARED_ENTITY`: an entity reference that no DTD
    /// declares, a warning when a DOCTYPE names an external subset.
    static let undeclaredEntityWarning = 27

    /// libxml2's warning numbers (`XML_WAR_…`).
    static let warnings: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]

    /// What is wrong, as a sentence without the position.
    public var sentence: String {
        switch code {
        case 1: "the XML parser failed on its own limits (libxml2 internal error)"
        case 2: "the XML parser ran out of memory"
        case 3, 4: "the file has no XML element where the document should start"
        case 5:
            if let openElement {
                "the document ends before <\(openElement)> is closed"
            } else {
                "there is content after the end of the root element"
            }
        case 6, 7, 8: "a character reference (&#…;) is not a valid character number"
        case 9: "a character that XML does not allow (a control character, or bytes that are not UTF-8)"
        case 10, 11, 12, 13: "a character reference (&#…;) where XML allows none"
        case 14, 15, 16, 17: "an entity reference (&…;) where XML allows none"
        case 22: "an '&' that does not start an entity reference (write &amp; for '&')"
        case 23: "an entity reference without its closing ';' (write &amp; for '&')"
        case 26, 27: "an entity reference (&…;) to an entity that is not declared (XML knows &lt; &gt; &amp; &quot; &apos;)"
        case 31, 32, 79: "the XML declaration names an encoding that the parser does not know"
        case 33, 34: "a quoted value is not opened or not closed with its quote"
        case 38: "a '<' inside an attribute value (write &lt;)"
        case 39: "an attribute value without quotes (write name=\"value\")"
        case 40: "an attribute value that is not closed with its quote"
        case 41: "an attribute without a value (write name=\"value\")"
        case 42: "an attribute given twice in one tag"
        case 43, 44: "a quoted literal that is not opened or not closed"
        case 45: "a comment that is not closed with -->"
        case 46, 47: "a processing instruction (<?…?>) that is not closed with ?>"
        case 56, 57: "an XML declaration (<?xml …?>) that is not closed with ?>"
        case 61: "a <!DOCTYPE …> that is not closed"
        case 62: "a ']]>' outside a CDATA section"
        case 63: "a CDATA section that is not closed with ]]>"
        case 64: "an XML declaration (<?xml …?>) that is not at the very start of the file"
        case 65: "a space is missing between attributes, or after an attribute value"
        case 68: "a name is missing where an element or attribute name should be"
        case 73: "a tag that is not closed with '>'"
        case 74: "a closing tag that is not written </name>"
        case 75: "an attribute without '=' between its name and its value"
        case 76:
            if let openElement {
                "a closing tag that does not match the open <\(openElement)>"
            } else {
                "a closing tag that does not match its opening tag"
            }
        case 77: "the file ends inside a tag"
        case 80: "'--' inside a comment"
        case 81: "bytes that are not valid in the document's encoding"
        case 85: "the elements are not properly nested"
        case 86: "there is content after the end of the root element"
        case 89: "entities that refer to each other in a loop"
        case 110: "a name longer than the parser allows"
        case 201: "a namespace prefix that is not declared"
        default: "XML syntax error number \(code) (libxml2's xmlParserErrors)"
        }
    }
}
