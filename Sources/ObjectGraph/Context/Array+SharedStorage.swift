extension Array {
    /// Whether both arrays use the same buffer (so hold the same elements).
    @inline(__always)
    func sharesStorage(with other: [Element]) -> Bool {
        withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
        }
    }
}
