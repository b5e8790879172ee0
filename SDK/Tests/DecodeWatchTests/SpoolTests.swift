import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct SpoolTests {
    @Test("the spool keeps batches across reopening, oldest first")
    func persists() throws {
        let directory = TestReporter.temporaryDirectory()
        var spool = BatchSpool(directory: directory, maxBatches: 10, maxBytes: 1 << 20)
        _ = spool.append(batchID: "first-id", reportCount: 3, body: Data("one".utf8))
        _ = spool.append(batchID: "second-id", reportCount: 1, body: Data("two".utf8))
        var reopened = BatchSpool(directory: directory, maxBatches: 10, maxBytes: 1 << 20)
        #expect(reopened.entries.isEmpty)  // opening reads nothing…
        #expect(reopened.refresh().isEmpty)  // …until the first look, on the uploader
        #expect(reopened.entries.map(\.batchID) == ["first-id", "second-id"])
        #expect(reopened.entries.map(\.reportCount) == [3, 1])
        #expect(reopened.body(of: reopened.entries[1]) == .data(Data("two".utf8)))
    }

    @Test("a full spool drops its oldest batches, by count and by bytes")
    func bounded() {
        var byCount = BatchSpool(directory: TestReporter.temporaryDirectory(), maxBatches: 2, maxBytes: 1 << 20)
        #expect(byCount.append(batchID: "a", reportCount: 1, body: Data(count: 10)).isEmpty)
        #expect(byCount.append(batchID: "b", reportCount: 1, body: Data(count: 10)).isEmpty)
        #expect(byCount.append(batchID: "c", reportCount: 1, body: Data(count: 10)).map(\.batchID) == ["a"])
        #expect(byCount.entries.map(\.batchID) == ["b", "c"])

        var byBytes = BatchSpool(directory: nil, maxBatches: 10, maxBytes: 25)
        _ = byBytes.append(batchID: "a", reportCount: 1, body: Data(count: 10))
        _ = byBytes.append(batchID: "b", reportCount: 1, body: Data(count: 10))
        #expect(byBytes.append(batchID: "c", reportCount: 1, body: Data(count: 10)).map(\.batchID) == ["a"])
        #expect(byBytes.totalBytes == 20)
    }

    @Test(
        "an unsent batch is spooled, and a new reporter on the same directory sends it with the same batch_id"
    )
    func resendAfterRestart() async throws {
        let directory = TestReporter.temporaryDirectory()
        let down = StubCollector()
        down.stop()
        let first = TestReporter.make(collector: down.url, session: down.session, spool: directory)
        first.record(
            Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", 1, "title"], kind: .keyNotFound))
        first.countDecode(endpoint: "GET /v2/posts", count: 7)
        await first.flush()
        let spooled = await first.spooledBatchIDs()
        #expect(spooled.count == 1)
        #expect(first.statistics.failedAttempts >= 1)

        let receiver = StubCollector()
        let second = TestReporter.make(collector: receiver.url, session: receiver.session, spool: directory)
        #expect(await second.spooledBatchIDs() == spooled)
        await second.flush()
        let requests = receiver.requests
        let batch = try #require(requests.first?.batch)
        #expect(batch.batchID == spooled[0])
        #expect(batch.reports.first?.path == ["results", 1, "title"])
        #expect(batch.decodes == [DecodeCount(endpoint: "GET /v2/posts", count: 7)])
        #expect(await second.spooledBatchIDs().isEmpty)
        #expect(second.statistics.sentBatches == 1)
    }

    @Test("with the collector down, the spool keeps the newest batches and counts the dropped ones")
    func boundedAcrossFlushes() async throws {
        let down = StubCollector()
        down.stop()
        let reporter = TestReporter.make(collector: down.url, session: down.session) {
            $0.maxSpooledBatches = 2
            $0.retry.maxAttemptsPerFlush = 1
            $0.retry.maxInlineDelay = 0
            $0.retry.baseDelay = 0
        }
        var ids: [String] = []
        for index in 0..<3 {
            reporter.record(Report(occurredAt: Date(), endpoint: "GET /x", path: [.index(index)], kind: .typeMismatch))
            await reporter.flush()
            ids = await reporter.spooledBatchIDs()
        }
        #expect(ids.count == 2)
        #expect(reporter.statistics.droppedBatches == 1)
        #expect(reporter.statistics.droppedBatchReports == 1)
    }

    @Test("the install id is made once and kept in the spool directory")
    func installID() async throws {
        let directory = TestReporter.temporaryDirectory()
        let receiver = StubCollector()
        for _ in 0..<2 {
            let reporter = TestReporter.make(collector: receiver.url, session: receiver.session, spool: directory)
            reporter.countDecode(endpoint: "GET /x")
            await reporter.flush()
        }
        let batches = receiver.requests.compactMap(\.batch)
        #expect(batches.count == 2)
        #expect(batches[0].installID != nil)
        #expect(batches[0].installID == batches[1].installID)
    }

    @Test("making a reporter touches no file: the spool folder and the install id appear with the first flush")
    func initDoesNoIO() async throws {
        let directory = TestReporter.temporaryDirectory().appendingPathComponent("spool")
        let receiver = StubCollector()
        let reporter = TestReporter.make(collector: receiver.url, session: receiver.session, spool: directory) {
            $0.installID = nil
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        reporter.record(
            Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", 1, "title"], kind: .keyNotFound))
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        await reporter.flush()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("install_id").path))
        #expect(receiver.requests.first?.batch?.installID != nil)
    }

    @Test("persist() writes the buffer to the spool before it returns; a relaunched reporter sends it once")
    func persistThenRelaunch() async throws {
        let directory = TestReporter.temporaryDirectory()
        let down = StubCollector()
        down.stop()
        let suspended = TestReporter.make(collector: down.url, session: down.session, spool: directory)
        suspended.record(
            Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", 1, "title"], kind: .keyNotFound))
        suspended.record(
            Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", 2, "body"], kind: .keyNotFound))
        suspended.countDecode(endpoint: "GET /v2/posts", count: 3)
        suspended.persist()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".batch")
        }
        #expect(files.count == 1)
        #expect(suspended.pendingReports().isEmpty)

        // The app was ended while suspended; the next launch sends what persist() wrote, once.
        let receiver = StubCollector()
        let relaunched = TestReporter.make(collector: receiver.url, session: receiver.session, spool: directory)
        await relaunched.flush()
        await relaunched.flush()
        let batches = receiver.requests.compactMap(\.batch)
        #expect(batches.count == 1)
        #expect(batches.first.map { files[0].hasSuffix("-\($0.batchID).batch") } == true)
        #expect(batches.first?.reports.count == 2)
        #expect(batches.first?.decodes == [DecodeCount(endpoint: "GET /v2/posts", count: 3)])
        #expect(await relaunched.spooledBatchIDs().isEmpty)
    }

    @Test("a batch persisted while the app keeps running goes out with the same reporter's next flush")
    func persistThenResume() async throws {
        let receiver = StubCollector()
        let reporter = TestReporter.make(collector: receiver.url, session: receiver.session)
        reporter.record(
            Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", 1, "title"], kind: .keyNotFound))
        reporter.persist()
        #expect(receiver.requests.isEmpty)
        await reporter.flush()
        #expect(receiver.requests.first?.batch?.reports.count == 1)
        #expect(await reporter.spooledBatchIDs().isEmpty)
    }
}
