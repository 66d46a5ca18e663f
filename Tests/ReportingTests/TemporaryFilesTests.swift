import Foundation
import Synchronization
import Testing
@testable import ToolSupport

/// Temporary files, and the directories made for them, are removed
/// whatever another thread still makes in them.
@Suite struct TemporaryFilesTests {
    private final class Maker: Sendable {
        let stop = Atomic<Bool>(false)
        let made = Atomic<Int>(0)
    }

    /// A store in a directory of its own goes with the directory, even
    /// while another thread (a connection still opening when a signal's
    /// clean-up runs) makes its `-shm` again and again: once the directory
    /// is gone, nothing more can be made in it.
    @Test func aStoresDirectoryGoesWhileAnotherThreadMakesFilesInIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-temporary-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/scratch.sqlite"
        let registration = TemporaryFiles.register(store, inDirectoryOfItsOwn: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        for suffix in ["", "-wal", "-shm"] { #expect(FileManager.default.createFile(atPath: store + suffix, contents: Data())) }
        #expect(TemporaryFiles.registered.contains(store))
        let maker = Maker()
        let thread = Thread {
            while !maker.stop.load(ordering: .relaxed) {
                let file = open(store + "-shm", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
                if file >= 0 {
                    close(file)
                    maker.made.add(1, ordering: .relaxed)
                }
                usleep(50)
            }
        }
        thread.start()
        while maker.made.load(ordering: .relaxed) < 20 { usleep(100) }
        registration.remove()
        let gone = !FileManager.default.fileExists(atPath: directory)
        // The other thread goes on trying for a while: it can make nothing.
        usleep(20_000)
        maker.stop.store(true, ordering: .relaxed)
        while !thread.isFinished { usleep(1_000) }
        #expect(gone, "\(directory) is still there")
        #expect(!FileManager.default.fileExists(atPath: directory), "the other thread made \(directory) again")
        #expect(!TemporaryFiles.registered.contains(store))
    }

    /// A file made in the directory after a pass removed its files is
    /// removed by the next pass: each pass lists the directory from its
    /// start.
    @Test func aFileMadeAfterTheFirstPassIsRemovedByTheNext() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-temporary-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: directory + "/scratch.sqlite", contents: Data()))
        let passes = Atomic<Int>(0)
        TemporaryFiles.afterUnlinkPass = { removed, pass in
            guard removed == directory else { return }
            passes.store(pass, ordering: .relaxed)
            // As a connection still opening makes its -shm again.
            if pass == 1 { _ = FileManager.default.createFile(atPath: directory + "/scratch.sqlite-shm", contents: Data()) }
        }
        defer { TemporaryFiles.afterUnlinkPass = nil }
        TemporaryFiles.removeDirectory(directory)
        #expect(!FileManager.default.fileExists(atPath: directory), "left: \((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])")
        #expect(passes.load(ordering: .relaxed) == 2)
    }

    /// A registration is forgotten only after its file is removed: while
    /// the directory is being removed it is still registered, so a signal
    /// arriving then removes what is left (the empty directory) instead of
    /// leaving it behind.
    @Test func aRegistrationIsForgottenOnlyAfterItsFileIsRemoved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-temporary-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/scratch.sqlite"
        let registration = TemporaryFiles.register(store, inDirectoryOfItsOwn: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: store, contents: Data()))
        let registeredDuringRemoval = Atomic<Int>(0)
        TemporaryFiles.afterUnlinkPass = { removed, _ in
            guard removed == directory else { return }
            // The files are gone, the directory not yet: a signal's clean-up now must still know of it.
            if TemporaryFiles.registered.contains(store) { registeredDuringRemoval.add(1, ordering: .relaxed) }
        }
        defer { TemporaryFiles.afterUnlinkPass = nil }
        registration.remove()
        #expect(registeredDuringRemoval.load(ordering: .relaxed) == 1)
        #expect(!TemporaryFiles.registered.contains(store))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// A link put where a registered directory was is not followed: what
    /// it points to keeps its files, and the link stays.
    @Test func aLinkInPlaceOfTheDirectoryIsNotFollowed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-temporary-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: base + "/elsewhere", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(FileManager.default.createFile(atPath: base + "/elsewhere/scratch.sqlite", contents: Data("not yours".utf8)))
        let directory = base + "/scratch"
        let registration = TemporaryFiles.register(directory + "/scratch.sqlite", inDirectoryOfItsOwn: directory)
        #expect(symlink(base + "/elsewhere", directory) == 0)
        registration.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/elsewhere") == ["scratch.sqlite"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory) == base + "/elsewhere")
        #expect(!TemporaryFiles.registered.contains(directory + "/scratch.sqlite"))
    }

    /// A file registered alone goes with a store's companions, and its
    /// directory stays.
    @Test func aFileGoesWithItsCompanionsAndItsDirectoryStays() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-temporary-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/copy.sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] { #expect(FileManager.default.createFile(atPath: store + suffix, contents: Data())) }
        #expect(FileManager.default.createFile(atPath: directory + "/kept", contents: Data()))
        TemporaryFiles.register(store).remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["kept"])
    }
}
