import DecodeWatchCore
import Foundation
import Testing

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
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try storage.flags(in: folder)
        let server = try CLI.start(["serve", "--port", "0"] + database)
        let port = try await server.port()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let load = URLSession(configuration: configuration)
        defer { load.invalidateAndCancel() }
        let batches = (0..<400).map { ReplicaBatch(index: $0) }
        let acknowledged = Acknowledged()

        // 16 senders post their share in turn until the collector dies; it is killed once 60 batches
        // are acknowledged, with up to 16 more in flight, some of them mid-commit.
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<16 {
                group.addTask {
                    for batch in batches where batch.index % 16 == sender {
                        guard let status = try? await batch.post(to: port, session: load) else { return }
                        if status == 202 { await acknowledged.add(batch.index) }
                    }
                }
            }
            group.addTask {
                while await acknowledged.indices.count < 60 { try? await Task.sleep(for: .milliseconds(2)) }
                kill(server.process.processIdentifier, SIGKILL)
            }
        }
        server.process.waitUntilExit()
        let acked = await acknowledged.indices
        #expect(server.process.terminationReason == .uncaughtSignal)
        #expect(acked.count >= 60 && acked.count < batches.count, "the kill must land under load")

        // After a restart, every batch is sent again: the acknowledged ones must all be duplicates. A new
        // session, since the old one's connections died with the collector.
        let restarted = try CLI.start(["serve", "--port", "0"] + database)
        let again = try await restarted.port()
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        var stored: Set<Int> = []
        for batch in batches {
            let answer = try await batch.answer(from: again, session: session)
            #expect(answer.status == 202, "\(answer.body)")
            if answer.body.contains(#""duplicate":true"#) { stored.insert(batch.index) }
        }
        #expect(acked.isSubset(of: stored), "acknowledged but lost: \(acked.subtracting(stored).sorted())")

        // Each batch, stored before the kill or after, is counted exactly once and whole.
        let url = URL(
            string: "http://127.0.0.1:\(again)/v1/fields?since=2026-11-21T00:00:00Z&until=2026-11-22T00:00:00Z")!
        let (data, _) = try await session.data(from: url)
        let fields = try JSONDecoder().decode(FieldsSummary.self, from: data).fields
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

/// The batches a killed collector acknowledged, collected from concurrent senders.
private actor Acknowledged {
    private(set) var indices: Set<Int> = []

    func add(_ index: Int) { indices.insert(index) }
}
