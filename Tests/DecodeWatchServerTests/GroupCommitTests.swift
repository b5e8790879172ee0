import DecodeWatchCore
import Foundation
import Testing

@Suite("POST /v1/reports: group commit")
struct GroupCommitTests {
    @Test("concurrent batches are each readable when their 202 arrives, and a batch sent twice at once counts once")
    func concurrentBatches() async throws {
        try await TestCollector.run { collector in
            let window = FieldsQuery(since: Date().addingTimeInterval(-86_400), until: Date().addingTimeInterval(60))
            // 24 batches, each on its own path and each delivered twice at the same time: 48 requests.
            let batches = try (0..<24).map { index in
                try JSONSerialization.data(
                    withJSONObject: Batches.batch(reports: [
                        Batches.report(path: ["results", 0, "field\(index)"], count: 1)
                    ]))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, batch) in (batches + batches).enumerated() {
                    group.addTask {
                        let answer = try await collector.ingest(batch)
                        #expect(answer.status == 202)
                        // 202 means committed: the batch's group is already there for any reader.
                        let stored = try await collector.store.fields(window).fields.map(\.path)
                        #expect(stored.contains("$.results[*].field\(index % 24)"))
                    }
                }
                try await group.waitForAll()
            }
            let fields = try await collector.store.fields(window).fields
            #expect(fields.count == 24)
            #expect(fields.allSatisfy { $0.count == 1 })
            // Every delivery went through a commit, duplicates included.
            let metrics = String(decoding: try await collector.send("GET", "/metrics").body, as: UTF8.self)
            func value(_ name: String) -> Double? {
                metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                    .flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            #expect(value("decodewatch_ingest_batches_per_commit_sum") == 48, "\(metrics)")
            // Each commit's time is recorded: as many commits as batches-per-commit observations.
            let commits = try #require(value("decodewatch_ingest_batches_per_commit_count"))
            #expect(commits >= 1)
            #expect(value("decodewatch_ingest_commit_duration_seconds_count") == commits, "\(metrics)")
            #expect(try #require(value("decodewatch_ingest_commit_duration_seconds_sum")) > 0)
        }
    }
}
