import Foundation
import PrometheusPublishing
import Testing

/// A server that answers badly: a body four times the limit (64 MiB) is
/// refused after at most 16 MiB (never kept whole in memory), and bytes
/// that are not HTTP or a connection closed early are said in words.
@Suite struct HostileServerTests {
    static func push(to server: HostileHTTPServer) throws -> PublishError? {
        let publication = try Publication(PublicationTests.report(), reportName: "r.json", labels: [], environment: [:], time: PublicationTests.time)
        do {
            try publication.push(to: try ServerAddress(server.address, option: "--pushgateway"))
            return nil
        } catch {
            return error
        }
    }

    /// An answer four times the limit, its length declared or not: the push
    /// fails with the limit in its words (what the client reads past the
    /// limit is dropped, never kept). When it hangs up depends on the HTTP
    /// client's own threads: on a loaded machine it read a whole gigabyte
    /// before the cancel took, so that is not asserted.
    @Test(arguments: [true, false])
    func aHugeAnswerIsRefusedAtTheLimit(declared: Bool) throws {
        let server = try HostileHTTPServer(.hugeBody(bytes: 64 << 20, declared: declared))
        defer { server.stop() }
        let error = try Self.push(to: server)
        #expect(error == PublishError("--pushgateway", "\(server.address): cannot push: the answer is larger than 16 MiB: not read"))
    }

    /// The listing of groups is read with the same bound.
    @Test func aHugeGroupListingIsRefusedAtTheLimit() throws {
        let server = try HostileHTTPServer(.hugeBody(bytes: 64 << 20, declared: false))
        defer { server.stop() }
        #expect(throws: PublishError("--pushgateway", "\(server.address): cannot list the groups: the answer is larger than 16 MiB: not read")) {
            try PushgatewayGroups.list(on: try ServerAddress(server.address, option: "--pushgateway"))
        }
    }

    /// An answer under the limit is read whole.
    @Test func anAnswerUnderTheLimitIsRead() throws {
        let server = try HostileHTTPServer(.hugeBody(bytes: 1 << 20, declared: true))
        defer { server.stop() }
        #expect(try Self.push(to: server) == nil)
    }

    @Test(arguments: [
        (HostileHTTPServer.Behaviour.garbage, "the answer is not HTTP (is this the server's HTTP port?)"),
        (.closeWithoutAnswer, "the server closed the connection without answering"),
        (.closeMidBody, "the connection broke off during the answer"),
    ])
    func aBrokenAnswerIsSaidInWords(behaviour: HostileHTTPServer.Behaviour, reason: String) throws {
        let server = try HostileHTTPServer(behaviour)
        defer { server.stop() }
        let error = try Self.push(to: server)
        #expect(error == PublishError("--pushgateway", "\(server.address): cannot push: \(reason)"), "\(String(describing: error))")
    }
}
