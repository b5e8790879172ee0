import DecodeWatchCore
import DecodeWatchTestSupport
import DecodeWatchZlib
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct IngestKeyTests {
    static let key = "dw_ik_7f3c9a51e0b24d6c"

    func failure(_ index: Int = 0) -> Report {
        Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", .index(index)], kind: .keyNotFound)
    }

    /// A reporter with the test key and a long backoff of exactly one second, so tests can wait it out.
    func reporter(_ receiver: TestReceiver, events: EventRecorder, spool: URL? = TestReporter.temporaryDirectory())
        -> Reporter
    {
        TestReporter.make(collector: receiver.url, spool: spool) {
            $0.ingestKey = Self.key
            $0.onEvent = events.record
            $0.retry.jitter = 0
            $0.retry.refusalBaseDelay = 1
            $0.retry.refusalMaxDelay = 1
        }
    }

    @Test(
        "the ingest key is sent as a Bearer header, trimmed; no key or a blank one sends no header",
        arguments: [
            (Self.key, "Bearer \(Self.key)"), (" \(Self.key)\n", "Bearer \(Self.key)"), (nil, nil), ("", nil),
            ("  ", nil),
        ] as [(String?, String?)])
    func header(key: String?, expected: String?) async throws {
        let receiver = try await TestReceiver()
        let reporter = TestReporter.make(collector: receiver.url) { $0.ingestKey = key }
        reporter.record(failure())
        await reporter.flush()
        let request = try #require(await receiver.waitForRequests(1).first)
        #expect(request.headers["authorization"] == expected)
    }

    @Test(
        "a 401 or 403 keeps all batches spooled, announces the code and message, sends only after the long backoff",
        arguments: [
            (401, "invalid_ingest_key", "The ingest key is unknown or revoked."),
            (403, "wrong_app", "This ingest key belongs to another app."),
        ])
    func keyRefused(status: Int, code: String, message: String) async throws {
        let receiver = try await TestReceiver()
        receiver.reply(.error(status, code: code, message: message))
        let events = EventRecorder()
        let reporter = reporter(receiver, events: events)
        reporter.record(failure())
        await reporter.flush()
        let first = try #require(await reporter.spooledBatchIDs().first)
        #expect(receiver.requests.count == 1)
        #expect(events.refusals == [.init(batchID: first, status: status, code: code, message: message, retryIn: 1)])
        #expect(reporter.statistics.refusedAttempts == 1 && reporter.statistics.droppedBatches == 0)

        // Within the backoff a flush only spools: every batch carries the same key.
        reporter.record(failure(1))
        await reporter.flush()
        #expect(receiver.requests.count == 1)
        let spooled = await reporter.spooledBatchIDs()
        #expect(spooled.count == 2 && spooled.first == first)

        // The key was fixed on the collector: after the backoff everything arrives once, oldest first.
        try await Task.sleep(nanoseconds: 1_100_000_000)
        await reporter.flush()
        let requests = await receiver.waitForRequests(3)
        #expect(requests.count == 3)
        #expect(requests.dropFirst().map(\.batch?.batchID) == spooled)
        #expect(await reporter.spooledBatchIDs().isEmpty)
        #expect(reporter.statistics.sentBatches == 2)
        // The point: a while passes and nothing more arrives.
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(receiver.requests.count == 3)
    }

    @Test(
        "a new reporter with the right key delivers what a refused one spooled, with the same batch_id"
    )
    func newKeyDeliversSpool() async throws {
        let directory = TestReporter.temporaryDirectory()
        let receiver = try await TestReceiver()
        receiver.reply(.error(401, code: "invalid_ingest_key", message: "The ingest key is unknown or revoked."))
        let refused = reporter(receiver, events: EventRecorder(), spool: directory)
        refused.record(failure())
        await refused.flush()
        let spooled = await refused.spooledBatchIDs()
        #expect(spooled.count == 1)

        let fixed = TestReporter.make(collector: receiver.url, spool: directory) { $0.ingestKey = "dw_ik_fixed" }
        await fixed.flush()
        let requests = await receiver.waitForRequests(2)
        #expect(requests.count == 2)
        #expect(requests[1].batch?.batchID == spooled[0])
        #expect(requests[1].headers["authorization"] == "Bearer dw_ik_fixed")
        #expect(await fixed.spooledBatchIDs().isEmpty)
    }

    @Test("the key never reaches the spool files or the events, even when the collector's answer quotes it")
    func keyStaysOutOfSpoolAndEvents() async throws {
        let directory = TestReporter.temporaryDirectory()
        let receiver = try await TestReceiver()
        receiver.reply(.error(401, code: "invalid_ingest_key", message: "Unknown ingest key \(Self.key)."))
        let events = EventRecorder()
        let reporter = reporter(receiver, events: events, spool: directory)
        reporter.record(failure())
        reporter.countDecode(endpoint: "GET /v2/posts", count: 3)
        await reporter.flush()
        #expect(await reporter.spooledBatchIDs().count == 1)

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains { $0.hasSuffix(".batch") })
        for name in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let text = name.hasSuffix(".batch") ? try Zlib.decompress(data) : data
            #expect(!String(decoding: text, as: UTF8.self).contains(Self.key), "\(name)")
            #expect(!name.contains(Self.key))
        }
        #expect(events.refusals.first?.message == "Unknown ingest key <redacted>.")
        #expect(!events.all.contains { String(describing: $0).contains(Self.key) })
    }
}
