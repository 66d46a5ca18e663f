extension Array {
    /// `count` copies of `value`, as `Array(repeating:count:)` makes them,
    /// but allocated through the standard library's code specialized for
    /// the element type. `Array(repeating:count:)` calls the standard
    /// library's unspecialized allocation, which looks the storage's type
    /// up in the runtime's metadata cache on every call (about 800
    /// instructions, more than reading a row's to-one keys); the engine
    /// makes such arrays per row read and per saved object.
    @inline(__always)
    init(filledWith value: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        for _ in 0..<count { append(value) }
    }
}
