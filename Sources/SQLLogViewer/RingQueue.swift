/// A first-in first-out queue of at most a fixed number of elements, kept
/// in a ring: an element is moved in and moved out, never shifted along
/// nor copied (the analyzer's statements waiting for their call site).
struct RingQueue<Element> {
    private var storage: [Element?]
    /// Where the first element is.
    private var head = 0
    private(set) var count = 0

    /// A queue of at most `capacity` elements.
    init(capacity: Int) {
        precondition(capacity > 0)
        storage = Array(repeating: nil, count: capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// Adds `element` at the end; the caller keeps at most the capacity.
    mutating func append(_ element: consuming Element) {
        precondition(count < storage.count, "a full ring queue")
        storage[place(count)] = element
        count += 1
    }

    /// Moves out the first element, if any.
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head = head + 1 == storage.count ? 0 : head + 1
        count -= 1
        return element
    }

    /// Changes the last element in place; nil when the queue is empty.
    mutating func updateLast<Result>(_ body: (inout Element) -> Result) -> Result? {
        guard count > 0 else { return nil }
        return body(&storage[place(count - 1)]!)
    }

    /// The storage index of the element `offset` places from the first.
    private func place(_ offset: Int) -> Int {
        let index = head + offset
        return index >= storage.count ? index - storage.count : index
    }
}
