import Foundation

/// What the last full verification of a cached data set saw, kept beside
/// the file (`NAME.sqlite.verified`): the file's device, inode, size, and
/// modification and status-change times to the nanosecond, the checksum it
/// matched, and what it was checked against (the model hash, the rows each
/// table must have). While all of them still hold, ``DataSetCache`` trusts
/// that verification rather than reading the whole file again.
///
/// A writer that changes the file through the file system changes its
/// status-change time (ctime), which no program can set back: a `write`,
/// a truncation, a replacement by rename, a `touch` that restores the old
/// modification time. What the record cannot see is a change that leaves
/// every fact as it was: bytes changed beneath the file system (a write to
/// the block device, a failing disk or memory), the system clock set back
/// to the old times while writing, or a file system that keeps no such
/// times. Such a file is used as it is until its facts change.
///
/// The record is written only when the file's times are older than a file
/// created before the verification began, on the same file system: a
/// write after the verification then gets a later time, and one before it
/// was read by it. A file verified in the same clock tick as its last
/// change (just built or renamed) is verified fully again next time.
struct DataSetVerificationRecord: Equatable {
    /// A time as a file system keeps it.
    struct Timestamp: Equatable, Comparable {
        let seconds: Int
        let nanoseconds: Int

        static func < (a: Timestamp, b: Timestamp) -> Bool {
            (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
        }

        var text: String {
            let digits = String(nanoseconds)
            return "\(seconds).\(String(repeating: "0", count: max(0, 9 - digits.count)))\(digits)"
        }
    }

    /// What changes when a file is written, replaced or touched.
    struct Facts: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Timestamp
        let changed: Timestamp

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if os(Linux)
            modified = Timestamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
            changed = Timestamp(seconds: Int(info.st_ctim.tv_sec), nanoseconds: Int(info.st_ctim.tv_nsec))
            #else
            modified = Timestamp(seconds: Int(info.st_mtimespec.tv_sec), nanoseconds: Int(info.st_mtimespec.tv_nsec))
            changed = Timestamp(seconds: Int(info.st_ctimespec.tv_sec), nanoseconds: Int(info.st_ctimespec.tv_nsec))
            #endif
        }

        /// The facts of the file at `path` itself (not of a link's
        /// target), or nil when it cannot be read.
        init?(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// Whether both times are before `time`.
        func predate(_ time: Timestamp) -> Bool { modified < time && changed < time }
    }

    let facts: Facts
    /// The checksum recorded at build time, which the file matched.
    let checksum: String
    let modelHash: String
    /// FNV-1a of the rows expected, table by table.
    let rows: String

    init(facts: Facts, checksum: String, kind: DataSetKind, scale: Double) {
        self.facts = facts
        self.checksum = checksum
        self.modelHash = kind.model.hash
        let expected = kind.expectedRows(scale: scale).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined()
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in expected.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        self.rows = String(hash, radix: 16)
    }

    /// The record's file: a few lines of text.
    var text: String {
        """
        faultline data set verification 1
        device \(facts.device) inode \(facts.inode) size \(facts.size) mtime \(facts.modified.text) ctime \(facts.changed.text)
        checksum \(checksum)
        model \(modelHash)
        rows \(rows)

        """
    }

    /// The record's file beside a data set's.
    static func path(_ dataSet: String) -> String { dataSet + ".verified" }
}
