import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

/// What iOS data protection does to the spool and the install id, played on any platform through a file seam
/// whose reads fail while "locked", as they fail on iOS before the first unlock or under complete protection.
@Suite struct DataProtectionTests {
    let collector = StubCollector()
    let lock = LockableFiles()
    let directory = TestReporter.temporaryDirectory()

    func reporter(_ adjust: (inout ReporterConfiguration) -> Void = { _ in }) -> Reporter {
        TestReporter.make(collector: collector.url, session: collector.session, spool: directory, files: lock.files) {
            $0.installID = nil
            adjust(&$0)
        }
    }

    func record(_ reporter: Reporter, index: Int = 1) {
        reporter.record(
            Report(occurredAt: Date(), endpoint: "GET /v2/posts", path: ["results", .index(index)], kind: .keyNotFound))
    }

    @Test("a batch whose file cannot be read stays spooled, is announced, and is sent once it can be read")
    func unreadableBatchStays() async throws {
        let events = EventRecorder()
        let reporter = reporter { $0.onEvent = events.record }
        record(reporter)
        reporter.persist()
        let spooled = await reporter.spooledBatchIDs()
        #expect(spooled.count == 1)

        lock.isLocked = true
        await reporter.flush()
        #expect(collector.requests.isEmpty)
        #expect(await reporter.spooledBatchIDs() == spooled)
        #expect(reporter.statistics.unreadableAttempts == 1)
        #expect(events.all.contains(.batchUnreadable(batchID: spooled[0])))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).contains { $0.hasSuffix(".batch") })

        lock.isLocked = false
        await reporter.flush()
        #expect(collector.requests.compactMap(\.batch?.batchID) == spooled)
        #expect(await reporter.spooledBatchIDs().isEmpty)
    }

    @Test("a batch whose file was deleted from outside leaves the spool without an upload")
    func deletedBatchLeaves() async throws {
        let reporter = reporter {
            $0.retry.maxAttemptsPerFlush = 1
            $0.retry.baseDelay = 0
        }
        collector.reply(.status(503))
        record(reporter)
        await reporter.flush()
        let spooled = await reporter.spooledBatchIDs()
        #expect(spooled.count == 1)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".batch") {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        await reporter.flush()
        #expect(collector.requests.count == 1)  // only the 503'd attempt
        #expect(await reporter.spooledBatchIDs().isEmpty)
    }

    @Test("an install id that cannot be read is never replaced: batches go without one until it can be read")
    func unreadableInstallIDIsKept() async throws {
        let file = directory.appendingPathComponent("install_id")
        try Data("kept-install".utf8).write(to: file)
        let reporter = reporter()

        lock.isLocked = true
        reporter.countDecode(endpoint: "GET /x")
        await reporter.flush()
        lock.isLocked = false
        reporter.countDecode(endpoint: "GET /x")
        await reporter.flush()

        let batches = collector.requests.compactMap(\.batch)
        #expect(batches.count == 2)
        #expect(batches.first?.installID == nil)
        #expect(batches.last?.installID == "kept-install")
        #expect(try String(contentsOf: file, encoding: .utf8) == "kept-install")
    }

    @Test("a missing install id is made once and kept across reporters")
    func missingInstallIDIsMadeOnce() async throws {
        for _ in 0..<2 {
            let reporter = reporter()
            reporter.countDecode(endpoint: "GET /x")
            await reporter.flush()
        }
        let ids = collector.requests.compactMap(\.batch?.installID)
        #expect(ids.count == 2)
        #expect(Set(ids).count == 1)
        #expect(lock.writeOptions.filter { $0.name == "install_id" }.count == 1)
    }

    @Test("spool files and the install id are written under completeUntilFirstUserAuthentication by default")
    func defaultProtectionClass() async throws {
        let reporter = reporter()
        record(reporter)
        reporter.persist()
        record(reporter, index: 2)
        collector.stop()
        await reporter.flush()
        let writes = lock.writeOptions
        #expect(writes.contains { $0.name.hasSuffix(".batch") })
        #expect(writes.contains { $0.name == "install_id" })
        for write in writes {
            #expect(write.options.contains(.completeFileProtectionUntilFirstUserAuthentication), "\(write.name)")
        }
    }

    @Test("a configured protection class is the one the files are written with")
    func configuredProtectionClass() async throws {
        let reporter = reporter { $0.fileProtection = .complete }
        record(reporter)
        reporter.persist()
        #expect(!lock.writeOptions.isEmpty)
        for write in lock.writeOptions {
            #expect(write.options.contains(.completeFileProtection), "\(write.name)")
        }
    }

    @Test("the default spool lives in Application Support, which the system does not purge, not in Caches")
    func defaultSpoolDirectory() throws {
        let spool = try #require(ReporterConfiguration.defaultSpoolDirectory)
        let support = try #require(
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first)
        #expect(spool.path.hasPrefix(support.path))
        #expect(spool.pathComponents.suffix(2) == ["DecodeWatch", "spool"])
    }
}
