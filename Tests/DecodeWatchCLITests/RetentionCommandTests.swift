import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decodewatch serve --retention`: the collector deletes what is older than the horizon by itself.
@Suite("serve --retention")
struct RetentionCommandTests {
    @Test(
        "serve deletes reports older than --retention at start and keeps the recent ones", arguments: Storage.allCases)
    func serveDeletesExpiredData(storage: Storage) async throws {
        try await CLI.withDatabase(on: storage) { _, database in
            let now = Date()
            let keeping = try CLI.start(["serve", "--port", "0", "--retention", "off"] + database)
            let port = try await keeping.port()
            for (index, age) in [60, 45, 1].enumerated() {
                let day = String(RFC3339.string(from: now.addingTimeInterval(-Double(age) * 86_400)).prefix(10))
                #expect(try await ReplicaBatch(index: index * 3, day: day).post(to: port, session: .shared) == 202)
            }
            #expect(try await keeping.terminate() == 0)

            let pruning = try CLI.start(
                ["serve", "--port", "0", "--retention", "30d", "--log-level", "info"] + database)
            let url = URL(string: "http://127.0.0.1:\(try await pruning.port())/v1/fields?since=90d")!
            var counts: [Int] = []
            try await eventually(every: .milliseconds(100)) {
                let (data, _) = try await URLSession.shared.data(from: url)
                counts = try JSONDecoder().decode(FieldsSummary.self, from: data).fields.map(\.count)
                return counts == [ReplicaBatch(index: 6).count]
            }
            #expect(counts == [ReplicaBatch(index: 6).count], "only the batch of a day ago is left")
            // The list changes with the sweep's first step; the sweep logs after a last, empty one.
            #expect(try await pruning.waitForLog(containing: "Deleted data past the retention horizon"))
            #expect(try await pruning.terminate() == 0)
        }
    }

    @Test(
        "a retention shorter than a day, or not a duration, is refused with one clear line", arguments: ["5m", "soon"])
    func refusesBadRetention(value: String) throws {
        let result = try CLI.run(["serve", "--retention", value, "--db", "/nonexistent/never-opened.sqlite"])
        #expect(result.status != 0)
        #expect(
            result.error.contains("--retention '\(value)' must be a duration of at least 1d, such as 90d, or 'off'."))
    }
}
