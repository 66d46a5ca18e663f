/// The objects of a fetch, in order.
///
/// Without a batch size it is an array of objects. With one
/// (``FetchRequest/fetchBatchSize``) it holds the matching IDs and loads a
/// page of rows the first time one of its elements is read; it keeps only
/// the page read last, so walking a large result keeps few objects alive.
/// Use it only inside its context's `perform`, like the objects.
public struct FetchedResults<Object: ManagedObject>: RandomAccessCollection {
    enum Storage {
        case objects([ManagedObject])
        case batched(BatchedObjects)
    }

    let storage: Storage

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of results.
    public var endIndex: Int {
        switch storage {
        case .objects(let objects): objects.count
        case .batched(let batched): batched.ids.count
        }
    }

    /// The object at `position`. With a batch size, reading an element of a
    /// page other than the last one read loads that page (one query).
    ///
    /// A result whose object is not an `Object` (the request names an entity
    /// of another class) stops the program.
    public subscript(position: Int) -> Object {
        let object: ManagedObject
        switch storage {
        case .objects(let objects): object = objects[position]
        case .batched(let batched): object = batched.object(at: position)
        }
        guard let typed = object as? Object else {
            preconditionFailure("Faultline: \(object.objectID) is a \(type(of: object)), not a \(Object.self)")
        }
        return typed
    }

    /// The objects, when they are all in memory (not batched).
    var objectsIfLoaded: [ManagedObject]? {
        if case .objects(let objects) = storage { return objects }
        return nil
    }

    /// The IDs of the results, without loading any row.
    public var objectIDs: [ObjectID] {
        switch storage {
        case .objects(let objects): objects.map(\.objectID)
        case .batched(let batched): batched.ids
        }
    }
}

/// The page-loading state of a batched fetch result.
final class BatchedObjects {
    let ids: [ObjectID]
    let batchSize: Int
    private let loadPage: ([ObjectID]) -> [ManagedObject]
    private var pageIndex = -1
    private var page: [ManagedObject] = []

    init(ids: [ObjectID], batchSize: Int, loadPage: @escaping ([ObjectID]) -> [ManagedObject]) {
        self.ids = ids
        self.batchSize = batchSize
        self.loadPage = loadPage
    }

    func object(at position: Int) -> ManagedObject {
        let wanted = position / batchSize
        if wanted != pageIndex {
            let start = wanted * batchSize
            let end = min(ids.count, start + batchSize)
            page = []  // release the previous page before loading the next
            page = loadPage(Array(ids[start..<end]))
            pageIndex = wanted
        }
        return page[position - wanted * batchSize]
    }
}
