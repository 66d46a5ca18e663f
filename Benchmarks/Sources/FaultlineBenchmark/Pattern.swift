import BuiltInScenarios
import Scenarios

/// A persistence pattern the benchmark measures three ways (the C limit,
/// Faultline, GRDB). Each is one of the scenarios' loops, or one half of a
/// paired scenario, on the Selfies data set (BatchInsert on Fireballs).
enum Pattern: String, CaseIterable, Codable, Sendable {
    case createDataSet = "CreateDataSet"
    case fetchAll = "FetchAll"
    case singleFault = "SingleFault"
    /// The BatchFaultByPredicate scenario's loop (each selfie's own
    /// destinations fetched with their values), which GRDB's query per selfie
    /// and relationship matches; the name predates the book-faithful
    /// BatchFault scenario and is kept so that earlier results compare.
    case batchFault = "BatchFault"
    case prefetch = "Prefetch"
    case subqueryByHand = "Subquery.byHand"
    case subquery = "Subquery.subquery"
    case batchUpdateOneAtATime = "BatchUpdate.oneAtATime"
    case batchUpdate = "BatchUpdate.batch"
    case batchInsertOneAtATime = "BatchInsert.oneAtATime"
    case batchInsert = "BatchInsert.batch"
    /// The engine's innermost step alone: every person fetched as a full
    /// object, then, pass after pass, each refreshed into a fault and read
    /// again, so every read but the first is a fault fulfilled from the row
    /// cache (the one fetch is amortized over the passes).
    case rowCacheFault = "RowCacheFault"
    /// An attribute read on a realized object: one fetch, then passes of
    /// reads without a fault or SQL.
    case attributeRead = "AttributeRead"

    /// How many times the two micro patterns go over every person.
    static let microPasses = 1_000

    var dataSet: DataSetKind {
        switch self {
        case .batchInsertOneAtATime, .batchInsert: .fireballs
        default: .selfies
        }
    }

    /// Whether it starts from no file at all (it builds the data set).
    var createsTheStore: Bool { self == .createDataSet }

    /// What one "access" is, for instructions per access.
    var accessUnit: String {
        switch self {
        case .createDataSet, .batchUpdateOneAtATime, .batchUpdate, .batchInsertOneAtATime, .batchInsert: "row written"
        case .fetchAll: "object fetched"
        case .singleFault, .batchFault, .prefetch: "name read"
        case .rowCacheFault: "fault from the row cache"
        case .attributeRead: "attribute read"
        case .subqueryByHand, .subquery: "row read"
        }
    }
}

/// How a pattern is run.
enum Variant: String, CaseIterable, Codable, Sendable {
    /// The engine's own SQL replayed through the SQLite C API, plus a
    /// hash-map lookup and a copy per access.
    case limit
    /// The scenario's code with the recorder on, as perf-run runs it.
    case faultline
    /// The same with no event sink.
    case faultlineSinksOff = "faultline-sinks-off"
    /// GRDB.swift 7.10.0, written as a GRDB user would.
    case grdb
    /// The scenario's code through the classes `perf-run model import
    /// --swift` generates (GeneratedSelfies), with the recorder on: set
    /// against `faultline`'s hand-written classes, for the patterns whose
    /// cost is the typed property read (``Pattern/readsTypedProperties``).
    case faultlineGenerated = "faultline-generated"
}

extension Pattern {
    /// The patterns whose measured work is typed property reads, where
    /// generated classes could cost what hand-written ones do not.
    var readsTypedProperties: Bool { self == .attributeRead || self == .rowCacheFault }

    /// The variants the pattern runs in.
    var variants: [Variant] {
        Variant.allCases.filter { $0 != .faultlineGenerated || readsTypedProperties }
    }
}
