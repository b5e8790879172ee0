import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

@Suite("Group commit: several batches in one transaction")
struct GroupCommitStoreTests {
    static let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    /// Batches that overlap in groups, minutes, hours, versions, installs, expected types and decodes.
    static func batches() throws -> [BatchAggregate] {
        try [
            StoreFixture.batch(
                3, at: "2026-11-21T09:00:10Z", paths: [["results", 0, "title"], ["results", 1, "id"]],
                version: "5.1.0", install: "install-1", snippet: #"{"first":1}"#, batchID: "a",
                decodes: ["GET /v2/posts": 100]),
            StoreFixture.batch(
                2, at: "2026-11-21T09:00:50Z", path: ["results", 0, "title"], expected: "Int", version: "5.2.0",
                install: "install-2", snippet: #"{"latest":2}"#, batchID: "b", decodes: ["GET /v2/posts": 40]),
            StoreFixture.batch(
                5, at: "2026-11-21T10:59:00Z", path: ["results", 1, "id"], kind: "typeMismatch", version: "5.2.0",
                install: "install-1", batchID: "c"),
            StoreFixture.batch(
                1, at: "2026-11-21T09:00:50Z", path: ["results", 0, "title"], version: "5.1.0", install: nil,
                snippet: #"{"tie":3}"#, batchID: "d", decodes: ["GET /v2/posts": 7, "GET /v2/users": 9]),
            StoreFixture.batch(
                4, at: "2026-11-21T11:30:00Z", path: ["user"], endpoint: "GET /v2/users/42", version: nil,
                install: "install-3", batchID: "e", decodes: ["GET /v2/users/7": 12]),
        ]
    }

    @Test(
        "batches committed together count exactly as if committed one by one, a batch twice in a commit once",
        arguments: StoreBackend.allCases)
    func foldsLikeSeparateCommits(backend: StoreBackend) async throws {
        let batches = try Self.batches()
        let together = try await backend.withFreshDatabase { fixture in
            // Batch "b" is delivered twice inside the commit, as two replicas' clients might retry at once.
            let outcomes = try await fixture.store.ingest(batches + [batches[1]])
            #expect(outcomes == [.stored, .stored, .stored, .stored, .stored, .duplicate])
            #expect(try await fixture.store.ingest([batches[0], batches[4]]) == [.duplicate, .duplicate])
            return try await fixture.store.fields(Self.window)
        }
        let oneByOne = try await backend.withFreshDatabase { fixture in
            for batch in batches { #expect(try await fixture.store.ingest(batch) == .stored) }
            return try await fixture.store.fields(Self.window)
        }
        #expect(together.fields.count == 4)
        #expect(together == oneByOne)
        // The latest report's sample wins; on a tie in time, the batch that came later in the commit.
        let title = try #require(together.fields.first { $0.path == "$.results[*].title" && $0.kind == .keyNotFound })
        #expect(title.sample.snippet == #"{"tie":3}"#)
        #expect(title.count == 3 * 1 + 2 + 1)
        #expect(title.installs == 2)
        #expect(title.versions == ["5.1.0": 4, "5.2.0": 2])
    }

    @Test(
        "a resolved group that a commit's batches bring back is regressed, with the version of the latest report",
        arguments: StoreBackend.allCases)
    func regressionInACommit(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(at: "2026-11-21T08:00:00Z", version: "5.1.0")
            let group = try await fixture.group(path: "$.results[*].title")
            try await fixture.store.resolve(group: group, at: date("2026-11-21T08:30:00Z"))
            let outcomes = try await fixture.store.ingest([
                try StoreFixture.batch(at: "2026-11-21T08:10:00Z", version: "5.1.0"),  // before the resolution
                try StoreFixture.batch(at: "2026-11-21T09:10:00Z", version: "6.0.0"),
                try StoreFixture.batch(at: "2026-11-21T09:00:00Z", version: "5.2.0"),
            ])
            #expect(outcomes == [.stored, .stored, .stored])
            let lifecycle = try #require(try await fixture.store.lifecycles(groups: [group])[group])
            #expect(lifecycle.state == .regressed)
            #expect(lifecycle.regressedVersion == "6.0.0")
            let field = try #require(try await fixture.store.fields(Self.window).fields.first)
            #expect(field.status == .regressed)
            #expect(field.count == 4)
        }
    }
}
