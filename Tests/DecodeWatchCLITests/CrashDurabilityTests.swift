import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

@testable import DecodeWatchServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decodewatch serve` killed with SIGKILL in the middle of concurrent ingest: a 202 means the batch is
/// committed (docs/wire-format.md#durability), so a restart must find every acknowledged batch, each whole and counted
/// once.
@Suite("A collector killed under load")
struct CrashDurabilityTests {
    @Test(
        "SIGKILL during concurrent ingest loses no acknowledged batch and leaves none half stored",
        arguments: Storage.allCases)
    func killedUnderLoad(storage: Storage) async throws {
        try await CLI.withDatabase(on: storage) { _, database in
            let server = try CLI.start(["serve", "--port", "0"] + database)
            let port = try await server.port()
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            let load = URLSession(configuration: configuration)
            defer { load.invalidateAndCancel() }
            let batches = (0..<400).map { ReplicaBatch(index: $0) }
            let client = TestHTTPClient(port: port, session: load)

            // 16 senders post their share in turn until the collector dies; it is killed once 60 batches
            // are acknowledged, with up to 16 more in flight, some of them mid-commit. The senders announce each
            // acknowledgment; their stream ends when all of them have stopped, so a collector that never acknowledges
            // 60 is killed all the same and the test fails instead of waiting for it.
            let (acknowledgments, announce) = AsyncStream.makeStream(of: Int.self)
            let senders = Task {
                await withTaskGroup(of: Void.self) { group in
                    for sender in 0..<16 {
                        group.addTask {
                            for batch in batches where batch.index % 16 == sender {
                                guard let answer = try? await batch.post(to: client) else { return }
                                if answer.status == 202 { announce.yield(batch.index) }
                            }
                        }
                    }
                }
                announce.finish()
            }
            var acked: Set<Int> = []
            for await index in acknowledgments {
                acked.insert(index)
                if acked.count == 60 { kill(server.process.processIdentifier, SIGKILL) }
            }
            await senders.value
            if acked.count < 60 { kill(server.process.processIdentifier, SIGKILL) }
            try await server.process.exit(within: .seconds(30))
            #expect(server.process.terminationReason == .uncaughtSignal)
            #expect(acked.count >= 60 && acked.count < batches.count, "the kill must land under load")

            // After a restart, every batch is sent again: the acknowledged ones must all be duplicates. A new
            // session, since the old one's connections died with the collector.
            let restarted = try CLI.start(["serve", "--port", "0"] + database)
            let again = try await restarted.port()
            let session = URLSession(configuration: configuration)
            defer { session.invalidateAndCancel() }
            let restartedClient = TestHTTPClient(port: again, session: session)
            var stored: Set<Int> = []
            for batch in batches {
                let answer = try await batch.post(to: restartedClient)
                #expect(answer.status == 202, "\(answer.text)")
                if (try? answer.decoded(IngestAnswer.self))?.duplicate == true { stored.insert(batch.index) }
            }
            #expect(acked.isSubset(of: stored), "acknowledged but lost: \(acked.subtracting(stored).sorted())")

            // Each batch, stored before the kill or after, is counted exactly once and whole.
            let summary = try await restartedClient.get(
                "/v1/fields?since=2026-11-21T00:00:00Z&until=2026-11-22T00:00:00Z")
            let fields = try summary.decoded(FieldsSummary.self).fields
            let expected = ReplicaBatch.expected(batches)
            #expect(fields.count == expected.count)
            for field in fields {
                let want = try #require(expected[field.path + " " + field.endpoint])
                #expect(field.count == want.count, "\(field.path) \(field.endpoint)")
                #expect(field.installs == want.installs.count, "\(field.path) \(field.endpoint)")
            }
            #expect(try await restarted.terminate() == 0)
        }
    }
}
