import SQLLogViewer
import ToolSupport

/// One output format of the reports' documents, as a type: its identity,
/// the documents it renders, and how (one type per format, as GRDB's
/// `DumpFormat`). ``ReportFormats/all`` registers them; a document renders
/// in every registered format that declares it.
public protocol ReportFormat: Sendable {
    /// The format's identity: the option `--NAME` and `--format NAME` write it.
    static var format: OutputFormat { get }
    /// What it is, for help text (`a JUnit XML file of test results`).
    static var summary: String { get }
    /// The documents it renders.
    static var documents: Set<ReportContent.Kind> { get }
    /// The text of `content`, whose kind is one of ``documents``.
    static func render(_ content: ReportContent) throws(OutputError) -> String
}

/// The documents of the reports' family, as the formats see them.
public enum ReportContent: Sendable {
    /// A run's report, with the timeline of its last iterations when kept.
    case run(Report, timeline: Timeline?)
    /// Two reports compared.
    case comparison(ReportComparison)
    /// A SQL debug log's analysis.
    case log(SQLLogDocument)
    /// Scenarios' figures over a history of runs.
    case trend(Trend)

    public enum Kind: String, Sendable, CaseIterable {
        case run, comparison, log, trend
    }

    public var kind: Kind {
        switch self {
        case .run: .run
        case .comparison: .comparison
        case .log: .log
        case .trend: .trend
        }
    }
}

/// Where the formats are registered: a new format is a type and a line here.
public enum ReportFormats {
    public static let all: [any ReportFormat.Type] = [
        TextFormat.self, JSONFormat.self, MarkdownFormat.self, HTMLFormat.self, JUnitFormat.self,
    ]

    /// The formats that render documents of `kind`, in registration order.
    public static func formats(of kind: ReportContent.Kind) -> [OutputFormat] {
        var formats: [OutputFormat] = []
        for type in all where type.documents.contains(kind) { formats.append(type.format) }
        return formats
    }

    /// `content` in `format`; a format that does not render it is an
    /// ``OutputError`` naming the ones that do.
    public static func render(_ content: ReportContent, as format: OutputFormat) throws(OutputError) -> String {
        for type in all where type.format == format && type.documents.contains(content.kind) {
            return try type.render(content)
        }
        let formats = formats(of: content.kind).map(\.rawValue).joined(separator: ", ")
        throw OutputError(format, reason: "not a format of this output (\(formats))")
    }
}

/// A document of the reports' family: it renders in the registered formats.
public protocol ReportContentDocument: Renderable {
    var content: ReportContent { get }
}

extension ReportContentDocument {
    public var outputFormats: [OutputFormat] { ReportFormats.formats(of: content.kind) }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        try ReportFormats.render(content, as: format)
    }
}
