import DecodeWatch
import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import Foundation
import Testing

/// The SDK against a collector that requires ingest keys: what an app with a wrong key sees.
@Suite("SDK to a keyed collector, end to end")
struct KeyedCollectorTests {
    static func reporter(_ url: URL, spool: URL, key: String, events: EventRecorder) -> Reporter {
        Reporter(
            configuration: ReporterConfiguration(
                collectorURL: url, app: AppInfo(id: "com.example.octo", version: "2.5.0"), ingestKey: key,
                installID: "install-1", spoolDirectory: spool,
                retry: ReporterConfiguration.RetryPolicy(maxAttemptsPerFlush: 1),
                onEvent: events.record))
    }

    @Test("a wrong key keeps the reports spooled and says why; with the right key after a restart they arrive once")
    func wrongKeyThenRightKey() async throws {
        let (folder, collector) = try EndToEndTests.freshCollector()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = CredentialSecret(kind: .ingest)
        try await collector.store.insertCredential(
            Credential(
                kind: .ingest, app: "com.example.octo", name: nil, createdAt: Date(), createdBy: nil),
            secretHash: secret.hash)
        try await collector.start()
        defer { Task { await collector.stop() } }

        let spool = folder.appendingPathComponent("spool")
        let events = EventRecorder()
        let wrong = Self.reporter(collector.url, spool: spool, key: "dwk_wrong", events: events)
        try EndToEndTests.decodeBrokenIssues(reporter: wrong)
        await wrong.flush()
        #expect(await wrong.spooledBatchIDs().count == 1)
        #expect(try await collector.totalCount() == 0)
        #expect(events.refusals.first?.status == 401)
        #expect(events.refusals.first?.code == "invalid_ingest_key")

        // The app ships an update with the right key: a new reporter on the same spool.
        let right = Self.reporter(collector.url, spool: spool, key: secret.value, events: events)
        await right.flush()
        #expect(await right.spooledBatchIDs().isEmpty)
        #expect(try await collector.totalCount() == 2)
        await right.flush()
        #expect(try await collector.totalCount() == 2)
        await collector.stop()
    }
}
