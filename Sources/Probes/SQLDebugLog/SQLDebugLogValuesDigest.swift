/// What level 1 of the SQL debug log writes of a statement's bound values:
/// a digest, 64-bit FNV-1a over each value's UTF-8 bytes, each value ended
/// by a 0xFF byte (which UTF-8 never holds), written in decimal. Two
/// executions with the same values show the same digest, so a level-1 log
/// tells a repeated statement from a loop over keys as level 2 does,
/// without showing the values. A digest is no secret: values from a small
/// set (a flag, a small number) can be found by trying them.
package enum SQLDebugLogValuesDigest {
    /// The digest of `values`.
    package static func digest(_ values: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in values {
            for byte in value.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            hash = (hash ^ 0xFF) &* 0x100_0000_01b3
        }
        return hash
    }
}
