import Foundation
import Testing
import TestSupport

/// Listing the process's images (the first traced fault of a typed
/// property does) while another thread closes a WAL database, or loads a
/// tracepoint provider that is refused and closed again, does not stop
/// the program. Checked by FileMappingsCheck
/// (Tests/FileMappingsCheck), a process of its own: without the fix it
/// crashes, which would take this test process with it.
@Suite struct FileMappingsTests {
    @Test func listingImagesWhileConnectionsCloseDoesNotCrash() throws {
        let check = try CommandResult.run(BuildProducts.path(of: "FileMappingsCheck"), ["1.5"])
        #expect(check.status == 0 && !check.signaled, "FileMappingsCheck: \(check.stderr)")
        #expect(check.stdout.contains("captures while connections opened and closed"))
    }

    /// A tracepoint provider of another version is opened and closed again
    /// at each load: its unmapping must not meet a capture either.
    @Test func listingImagesWhileRefusedProvidersCloseDoesNotCrash() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-mappings-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try LTTngHarness.buildProviderOfVersion2(in: directory)
        let check = try CommandResult.run(BuildProducts.path(of: "FileMappingsCheck"), ["provider", library.path, "1.5"])
        #expect(check.status == 0 && !check.signaled, "FileMappingsCheck: \(check.stderr)")
        #expect(check.stdout.contains("captures while providers loaded and closed"))
    }
}
