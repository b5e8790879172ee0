import DecodeWatch
import DecodeWatchCore
import DecodeWatchServer
import Foundation
import Testing

/// The SDK against the real collector: what an app sees in the field.
@Suite("SDK to collector, end to end")
struct EndToEndTests {
    /// Issues with two broken elements: a missing title and an unknown author association.
    static func brokenIssues() throws -> Data {
        try Fixture.edited(
            "issues.json", [([.index(1), .key("title")], nil), ([.index(4), .key("author_association")], "SPONSOR")])
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A temporary folder and a collector, not started yet, on a database in it; the caller removes the folder.
    static func freshCollector() throws -> (URL, LiveCollector) {
        let folder = try Self.folder()
        return (folder, try LiveCollector(databasePath: folder.appendingPathComponent("c.sqlite").path))
    }

    /// Decodes ``brokenIssues()`` as the answer of `GET /repos/octo/shop/issues`, reporting to `reporter`.
    @discardableResult
    static func decodeBrokenIssues(reporter: Reporter) throws -> [Safe<GitHubIssue>] {
        try decoder.decode(
            [Safe<GitHubIssue>].self, from: brokenIssues(), endpoint: "GET /repos/octo/shop/issues", reporter: reporter)
    }

    static func reporter(_ url: URL, spool: URL) -> Reporter {
        Reporter(
            configuration: ReporterConfiguration(
                collectorURL: url, app: AppInfo(id: "com.example.octo", version: "2.5.0"), installID: "install-1",
                spoolDirectory: spool,
                retry: ReporterConfiguration.RetryPolicy(maxAttemptsPerFlush: 1)))
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("reports made offline are spooled, survive a restart, and are delivered once when the collector is back")
    func offlineThenDeliveredOnce() async throws {
        let (folder, collector) = try Self.freshCollector()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await collector.start()
        await collector.stop()  // the port is known and nothing listens on it: the app is offline

        let spool = folder.appendingPathComponent("spool")
        let offline = Self.reporter(collector.url, spool: spool)
        let issues = try Self.decodeBrokenIssues(reporter: offline)
        #expect(issues.compactMap(\.value).count == issues.count - 1)
        await offline.flush()
        let spooled = await offline.spooledBatchIDs()
        #expect(spooled.count == 1)

        // The app restarts: a new reporter on the same spool, and the collector is back.
        try await collector.start()
        defer { Task { await collector.stop() } }
        let restarted = Self.reporter(collector.url, spool: spool)
        await restarted.flush()
        #expect(await restarted.spooledBatchIDs().isEmpty)
        #expect(try await collector.totalCount() == 2)
        await restarted.flush()
        #expect(try await collector.totalCount() == 2)

        let fields = try await collector.store.fields(
            FieldsQuery(since: Date().addingTimeInterval(-3600), until: Date().addingTimeInterval(3600)))
        #expect(Set(fields.fields.map(\.path)) == ["$[*].title", "$[*].author_association"])
        #expect(Set(fields.fields.map(\.kind)) == [.keyNotFound, .unknownValue])
        #expect(fields.fields.allSatisfy { $0.rate == 1 })  // one failure each in the one decoded response
        await collector.stop()
    }

    @Test("a crash between send and acknowledgement does not count the batch twice")
    func crashBeforeAcknowledgement() async throws {
        let (folder, collector) = try Self.freshCollector()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await collector.start()
        await collector.stop()

        let spool = folder.appendingPathComponent("spool")
        let first = Self.reporter(collector.url, spool: spool)
        try Self.decodeBrokenIssues(reporter: first)
        await first.flush()
        let copy = folder.appendingPathComponent("spool-before-ack")
        try FileManager.default.copyItem(at: spool, to: copy)

        try await collector.start()
        let delivering = Self.reporter(collector.url, spool: spool)  // the next launch
        await delivering.flush()  // delivered and removed from the spool
        #expect(await delivering.spooledBatchIDs().isEmpty)
        #expect(try await collector.totalCount() == 2)

        // The app had crashed before it could remove the batch: the spool still holds it.
        try FileManager.default.removeItem(at: spool)
        try FileManager.default.copyItem(at: copy, to: spool)
        let afterCrash = Self.reporter(collector.url, spool: spool)
        #expect(await afterCrash.spooledBatchIDs().count == 1)
        await afterCrash.flush()
        #expect(await afterCrash.spooledBatchIDs().isEmpty)
        #expect(try await collector.totalCount() == 2)
        await collector.stop()
    }

    @Test("a rate-limited app keeps its batch and delivers it after Retry-After")
    func rateLimitHonoured() async throws {
        let (folder, collector) = try Self.freshCollector()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await collector.start(configuration: ServerConfiguration(maxConcurrentIngests: 0, retryAfterSeconds: 1))
        let spool = folder.appendingPathComponent("spool")
        let reporter = Self.reporter(collector.url, spool: spool)
        try Self.decodeBrokenIssues(reporter: reporter)
        await reporter.flush()
        #expect(await reporter.spooledBatchIDs().count == 1)
        #expect(try await collector.totalCount() == 0)

        await collector.stop()
        try await collector.start()
        try await Task.sleep(nanoseconds: 1_200_000_000)  // Retry-After: 1
        await reporter.flush()
        #expect(await reporter.spooledBatchIDs().isEmpty)
        #expect(try await collector.totalCount() == 2)
        await collector.stop()
    }

    @Test(
        "an endpoint that does not normalize is sent as UNKNOWN with its path, or UNKNOWN /, and the collector keeps it",
        arguments: [
            ("https://api.example.com/repos/octo/shop/issues/17?page=2", "UNKNOWN /repos/octo/shop/issues/{id}"),
            ("issues of octo/shop", "UNKNOWN /"),
        ])
    func endpointPlaceholder(raw: String, sent: String) async throws {
        let (folder, collector) = try Self.freshCollector()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await collector.start()
        let events = EventRecorder()
        let reporter = Reporter(
            configuration: ReporterConfiguration(
                collectorURL: collector.url, app: AppInfo(id: "com.example.octo", version: "2.5.0"),
                installID: "install-1", spoolDirectory: folder.appendingPathComponent("spool"),
                onEvent: events.record))
        _ = try Self.decoder.decode(
            [Safe<GitHubIssue>].self, from: Self.brokenIssues(), endpoint: raw, reporter: reporter)
        #expect(reporter.pendingReports().allSatisfy { $0.endpoint == sent })
        #expect(reporter.pendingDecodes().map(\.endpoint) == [sent])
        await reporter.flush()
        #expect(events.refusals.isEmpty)
        #expect(events.all.allSatisfy { if case .batchSent = $0 { true } else { false } })
        #expect(try await collector.totalCount() == 2)
        await collector.stop()
    }
}
