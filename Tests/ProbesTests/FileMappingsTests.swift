import Testing
import TestSupport

/// Listing the process's images (the first traced fault of a typed
/// property does) while another thread closes a WAL database does not
/// stop the program. Checked by FileMappingsCheck
/// (Tests/FileMappingsCheck), a process of its own: without the fix it
/// crashes, which would take this test process with it.
@Suite struct FileMappingsTests {
    @Test func listingImagesWhileConnectionsCloseDoesNotCrash() throws {
        let check = try CommandResult.run(BuildProducts.path(of: "FileMappingsCheck"), ["1.5"])
        #expect(check.status == 0 && !check.signaled, "FileMappingsCheck: \(check.stderr)")
        #expect(check.stdout.contains("captures while connections opened and closed"))
    }
}
