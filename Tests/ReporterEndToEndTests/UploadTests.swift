import DecodeWatchCore
import DecodeWatchTestSupport
import DecodeWatchZlib
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct UploadTests {
    /// A failure of a field of its own for each `index`, so that different indexes never fold together.
    func failure(_ index: Int = 0) -> Report {
        Report(
            occurredAt: Date(), endpoint: "GET /v2/posts", type: "Page",
            path: ["results", .index(index), .key("title\(index)")],
            kind: .keyNotFound, message: "No value", snippet: #"{"id":"pos_2"}"#)
    }

    @Test("a flush posts a deflated JSON batch to /v1/reports with the contract's headers")
    func postsBatch() async throws {
        let receiver = try await TestReceiver()
        let reporter = TestReporter.make(collector: receiver.url) { $0.ingestKey = "dw_test_key" }
        reporter.record(failure())
        reporter.record(failure())
        reporter.countDecode(endpoint: "GET /v2/posts?page=2", count: 120)
        await reporter.flush()
        let request = try #require(await receiver.waitForRequests(1).first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/reports")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["content-encoding"] == "deflate")
        #expect(request.headers["authorization"] == "Bearer dw_test_key")
        let inflated = try Zlib.decompress(request.body)
        let batch = try JSONDecoder().decode(ReportBatch.self, from: inflated)
        #expect(UUID(uuidString: batch.batchID) != nil)
        #expect(batch.app == TestReporter.app)
        #expect(batch.sdk == .decodeWatch)
        #expect(batch.sentAt != nil)
        #expect(batch.decodes == [DecodeCount(endpoint: "GET /v2/posts", count: 120)])
        #expect(batch.reports.count == 1)
        #expect(batch.reports.first?.count == 2)
        #expect(batch.reports.first?.snippet == #"{"id":"pos_2"}"#)
        // The wire form follows the field names of docs/wire-format.md#batch.
        let object = try JSONSerialization.jsonObject(with: inflated) as? [String: Any]
        #expect(object?["batch_id"] is String && object?["sent_at"] is String)
        #expect(reporter.pendingReports().isEmpty)
        #expect(await reporter.spooledBatchIDs().isEmpty)
    }

    @Test("batches name the environment: debug in a debug build by default, and the configured one when set")
    func environment() async throws {
        let receiver = try await TestReceiver()
        let byDefault = TestReporter.make(collector: receiver.url)
        let configured = TestReporter.make(collector: receiver.url) { $0.environment = "testflight" }
        byDefault.record(failure())
        await byDefault.flush()
        configured.record(failure())
        await configured.flush()
        let requests = try await receiver.waitForRequests(2)
        // Tests build in the debug configuration.
        #expect(requests.map { $0.batch?.environment } == ["debug", "testflight"])
    }

    @Test("no Authorization header is sent without an ingest key, and an empty buffer sends nothing")
    func noKey() async throws {
        let receiver = try await TestReceiver()
        let reporter = TestReporter.make(collector: receiver.url)
        await reporter.flush()
        #expect(receiver.requests.isEmpty)
        reporter.record(failure())
        await reporter.flush()
        let request = try #require(await receiver.waitForRequests(1).first)
        #expect(request.headers["authorization"] == nil)
    }

    @Test("a 503 with Retry-After is retried after the wait, with the same batch_id")
    func retryAfter503() async throws {
        let receiver = try await TestReceiver()
        receiver.reply(
            .status(503, headers: ["Retry-After": "1"], body: #"{"error":{"code":"unavailable","message":"x"}}"#))
        let reporter = TestReporter.make(collector: receiver.url)
        reporter.record(failure())
        await reporter.flush()
        let requests = await receiver.waitForRequests(2)
        #expect(requests.count == 2)
        #expect(requests[0].batch?.batchID == requests[1].batch?.batchID)
        let gap = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
        #expect(gap >= 0.9)
        #expect(reporter.statistics.sentBatches == 1 && reporter.statistics.failedAttempts == 1)
        #expect(await reporter.spooledBatchIDs().isEmpty)
    }

    @Test("a 429 asking for a long wait keeps the batch and later flushes do not send before it passes")
    func longRetryAfter429() async throws {
        let receiver = try await TestReceiver()
        receiver.reply(.status(429, headers: ["Retry-After": "120"]))
        let reporter = TestReporter.make(collector: receiver.url)
        reporter.record(failure())
        await reporter.flush()
        #expect(receiver.requests.count == 1)
        #expect(await reporter.spooledBatchIDs().count == 1)
        reporter.record(failure(1))
        await reporter.flush()
        #expect(receiver.requests.count == 1)
        #expect(await reporter.spooledBatchIDs().count == 2)
    }

    @Test("5xx answers and network errors drop nothing: the batch stays spooled until a 2xx")
    func keepsOnServerErrors() async throws {
        let receiver = try await TestReceiver()
        receiver.reply(.status(500), .hangUp)
        let reporter = TestReporter.make(collector: receiver.url)
        reporter.record(failure())
        await reporter.flush()  // two attempts: 500, then hang-up
        #expect(receiver.requests.count == 2)
        let spooled = await reporter.spooledBatchIDs()
        #expect(spooled.count == 1)
        try await Task.sleep(nanoseconds: 100_000_000)  // past the short backoff
        await reporter.flush()
        let requests = await receiver.waitForRequests(3)
        #expect(requests.count == 3)
        #expect(requests[2].batch?.batchID == spooled[0])
        #expect(await reporter.spooledBatchIDs().isEmpty)
    }

    @Test(
        "a 400, 413 or 415 keeps the batch spooled, surfaces the collector's code and message, holds only that batch",
        arguments: [400, 413, 415])
    func refusedBatchStaysSpooled(status: Int) async throws {
        let receiver = try await TestReceiver()
        receiver.reply(.error(status, code: "invalid_batch", message: "app.id is missing."))
        let events = EventRecorder()
        let reporter = TestReporter.make(collector: receiver.url) {
            $0.onEvent = events.record
            $0.retry.jitter = 0
            $0.retry.refusalBaseDelay = 1
        }
        reporter.record(failure())
        await reporter.flush()
        let refused = try #require(await reporter.spooledBatchIDs().first)
        #expect(receiver.requests.count == 1)
        #expect(reporter.statistics.refusedAttempts == 1 && reporter.statistics.failedAttempts == 0)
        #expect(
            events.refusals == [
                .init(
                    batchID: refused, status: status, code: "invalid_batch", message: "app.id is missing.", retryIn: 1)
            ])

        // Not resent within the long backoff, and it does not hold up a newer batch.
        reporter.record(failure(1))
        await reporter.flush()
        let requests = await receiver.waitForRequests(2)
        #expect(requests.count == 2)
        #expect(requests[1].batch?.batchID != refused)
        #expect(await reporter.spooledBatchIDs() == [refused])

        // After the backoff the refused batch is tried again with the same batch_id.
        try await Task.sleep(nanoseconds: 1_100_000_000)
        await reporter.flush()
        #expect(await receiver.waitForRequests(3).last?.batch?.batchID == refused)
        #expect(await reporter.spooledBatchIDs().isEmpty)
        #expect(reporter.statistics.sentBatches == 2)
    }

    @Test("an error answer that is not the collector's (a proxy's page) still reaches the event, without a code")
    func refusedByProxy() async throws {
        let receiver = try await TestReceiver()
        receiver.reply(.status(400, body: "<html><body>Bad Request</body></html>"))
        let events = EventRecorder()
        let reporter = TestReporter.make(collector: receiver.url) { $0.onEvent = events.record }
        reporter.record(failure())
        await reporter.flush()
        let refusal = try #require(events.refusals.first)
        #expect(refusal.code == nil)
        #expect(refusal.message == "HTTP 400: <html><body>Bad Request</body></html>")
        #expect(await reporter.spooledBatchIDs().count == 1)
    }

    @Test("a 202 with rejected reports and warnings is announced once with the counts and the collector's messages")
    func acceptedWithIssues() async throws {
        let receiver = try await TestReceiver()
        receiver.reply(
            .status(
                202,
                body: """
                    {"accepted":1,"rejected":[{"index":1,"error":"reports[1].kind: unknown kind 'oops'"}],
                     "warnings":["app.version: longer than 64 characters, truncated"],"duplicate":false}
                    """))
        let events = EventRecorder()
        let reporter = TestReporter.make(collector: receiver.url) { $0.onEvent = events.record }
        reporter.record(failure())
        reporter.record(failure(1))
        await reporter.flush()
        let batchID = try #require(await receiver.waitForRequests(1).first?.batch?.batchID)
        #expect(
            events.all == [
                .batchSentWithIssues(
                    batchID: batchID, accepted: 1,
                    rejected: [.init(index: 1, error: "reports[1].kind: unknown kind 'oops'")],
                    warnings: ["app.version: longer than 64 characters, truncated"])
            ])
        #expect(reporter.statistics.sentBatches == 1 && reporter.statistics.rejectedReports == 1)
        #expect(await reporter.spooledBatchIDs().isEmpty)

        // An answer without `warnings` (a collector older than ingest keys) and nothing rejected is a plain success.
        reporter.record(failure(2))
        await reporter.flush()
        let second = try #require(await receiver.waitForRequests(2).last?.batch?.batchID)
        #expect(events.all.last == .batchSent(batchID: second, status: 202))
    }

    @Test("a 408 is retried like a 5xx")
    func timeoutIsRetried() async throws {
        let receiver = try await TestReceiver()
        receiver.reply(.status(408))
        let reporter = TestReporter.make(collector: receiver.url)
        reporter.record(failure())
        await reporter.flush()
        #expect(await receiver.waitForRequests(2).count == 2)
        #expect(reporter.statistics.sentBatches == 1)
    }

    @Test("reaching the batch size starts a flush by itself")
    func flushOnSize() async throws {
        let receiver = try await TestReceiver()
        let reporter = TestReporter.make(collector: receiver.url) { $0.maxReportsPerBatch = 3 }
        for index in 0..<3 { reporter.record(failure(index)) }
        let requests = await receiver.waitForRequests(1)
        #expect(requests.first?.batch?.reports.count == 3)
    }

    @Test("more reports than fit in a batch are split, decode counts going with the first")
    func splits() async throws {
        let receiver = try await TestReceiver()
        let reporter = TestReporter.make(collector: receiver.url) { (configuration: inout ReporterConfiguration) in
            configuration.maxReportsPerBatch = 1000
            configuration.maxBufferedReports = 5000
        }
        for index in 0..<1500 { reporter.record(failure(index)) }
        reporter.countDecode(endpoint: "GET /v2/posts", count: 3)
        // maxReportsPerBatch reached: a flush may already be running and may have drained only part of the
        // rest (then the batches are 1000, a few, and what this flush finds); wait for all the reports.
        await reporter.flush()
        var batches = await receiver.waitForRequests(2).compactMap(\.batch)
        try await eventually(within: .seconds(5), every: .milliseconds(50)) {
            batches = receiver.requests.compactMap(\.batch)
            return batches.map(\.reports.count).reduce(0, +) >= 1500
        }
        #expect(batches.map(\.reports.count).reduce(0, +) == 1500)
        #expect(batches.allSatisfy { $0.reports.count <= 1000 })
        #expect(batches.flatMap(\.decodes).map(\.count).reduce(0, +) == 3)
    }

    @Test("run() flushes on its timer and spools what is left when cancelled")
    func runLoop() async throws {
        let receiver = try await TestReceiver()
        let directory = TestReporter.temporaryDirectory()
        let reporter = TestReporter.make(collector: receiver.url, spool: directory) { $0.flushInterval = 0.1 }
        let task = Task { await reporter.run() }
        reporter.record(failure())
        #expect(await receiver.waitForRequests(1).count == 1)
        await receiver.stop()
        reporter.record(failure(1))
        task.cancel()
        await task.value
        // The collector is down: the second report must be in the spool (written before any upload), not lost.
        #expect(await reporter.spooledBatchIDs().count == 1)
        let restarted = TestReporter.make(collector: receiver.url, spool: directory)
        #expect(await restarted.spooledBatchIDs() == reporter.spooledBatchIDs())
        #expect(receiver.requests.count == 1)
    }

    @Test("a disabled reporter does not upload")
    func disabled() async throws {
        let receiver = try await TestReceiver()
        let reporter = TestReporter.make(collector: receiver.url)
        reporter.record(failure())
        reporter.setEnabled(false)
        await reporter.flush()
        #expect(receiver.requests.isEmpty)
    }

    @Test("Retry-After is read as seconds or as an HTTP date, and backoff grows with jitter within bounds")
    func retryPolicy() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(ReporterConfiguration.RetryPolicy.parseRetryAfter("30") == 30)
        #expect(ReporterConfiguration.RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:13:20 GMT", now: now) == 0)
        #expect(ReporterConfiguration.RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:14:40 GMT", now: now) == 80)
        #expect(ReporterConfiguration.RetryPolicy.parseRetryAfter("soon") == nil)
        let policy = ReporterConfiguration.RetryPolicy(baseDelay: 1, maxDelay: 10, jitter: 0.5)
        #expect(policy.delay(afterFailures: 1, retryAfter: nil, random: 0) == 0.5)
        #expect(policy.delay(afterFailures: 3, retryAfter: nil, random: 0.999) < 4)
        #expect(policy.delay(afterFailures: 3, retryAfter: nil, random: 0) == 2)
        #expect(policy.delay(afterFailures: 20, retryAfter: nil, random: 1) == 10)
        #expect(policy.delay(afterFailures: 1, retryAfter: 99_999, random: 0) == 3600)
    }

    @Test("after a refusal the default backoff starts at 5 minutes and doubles to 1 hour, jitter shortening it")
    func refusalBackoff() {
        let policy = ReporterConfiguration.RetryPolicy()
        #expect(policy.delay(afterRefusals: 1, random: 1) == 300)
        #expect(policy.delay(afterRefusals: 1, random: 0) == 150)
        #expect(policy.delay(afterRefusals: 2, random: 1) == 600)
        #expect(policy.delay(afterRefusals: 4, random: 1) == 2400)
        #expect(policy.delay(afterRefusals: 5, random: 1) == 3600)
        #expect(policy.delay(afterRefusals: 50, random: 1) == 3600)
    }
}
