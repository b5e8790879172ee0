import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

@Suite("Group commit: several batches in one transaction")
struct GroupCommitStoreTests {
    static let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    /// Batches that overlap in groups, minutes, hours, versions, installs, expected types and decodes.
    static func batches() throws -> [ReceivedBatch] {
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
            let outcomes = try await fixture.sink.commit(batches + [batches[1]])
            #expect(outcomes == [.stored, .stored, .stored, .stored, .stored, .duplicate])
            #expect(try await fixture.sink.commit([batches[0], batches[4]]) == [.duplicate, .duplicate])
            return try await fixture.store.fields(Self.window)
        }
        let oneByOne = try await backend.withFreshDatabase { fixture in
            for batch in batches { #expect(try await fixture.sink.commit(batch) == .stored) }
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
            let outcomes = try await fixture.sink.commit([
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

    @Test(
        "commits of every size store every row: full statements, and each smaller size after larger ones",
        arguments: StoreBackend.allCases)
    func commitsOfEverySize(backend: StoreBackend) async throws {
        // Each batch brings a new install and version to the same cell, so a commit of n batches writes n install
        // rows and n version rows: sizes around the statement limit of 90 rows and its powers of two, so SQLite's
        // kept statements of one size serve later commits of other sizes. Fewer than 1,000 installs in all, so
        // they are counted exactly.
        let sizes = [1, 2, 3, 89, 90, 91, 181, 7, 64, 1, 3, 2]
        try await backend.withFreshDatabase { fixture in
            var sent = 0
            for size in sizes {
                let batches = try (0..<size).map { index in
                    try StoreFixture.batch(
                        2, version: "v\(sent + index)", install: "install-\(sent + index)", batchID: "b\(sent + index)")
                }
                #expect(try await fixture.sink.commit(batches) == Array(repeating: .stored, count: size))
                sent += size
            }
            let field = try #require(try await fixture.store.fields(Self.window).fields.first)
            #expect(field.count == 2 * sent)
            #expect(field.installs == sent)
            #expect(field.versions.count == sent)
            #expect(field.versions.values.allSatisfy { $0 == 2 })
        }
    }

    @Test(
        "a sample snippet comes back byte for byte: empty, with an escaped NUL, and beyond ASCII",
        arguments: StoreBackend.allCases)
    func sampleTextRoundTrips(backend: StoreBackend) async throws {
        for snippet in ["", #"{"a":"x\u0000y"}"#, #"{"name":"Zoë 😀"}"#] {
            let batch = try StoreFixture.batch(snippet: snippet)
            let stored = try #require(batch.aggregate.groups.first?.sample.snippet)
            try await backend.withFreshDatabase { fixture in
                #expect(try await fixture.sink.commit(batch) == .stored)
                let field = try #require(try await fixture.store.fields(Self.window).fields.first)
                #expect(field.sample.snippet == stored)
            }
        }
    }

    @Test(
        "the one sample a commit keeps of a group is redacted, whichever of its batches it came from",
        arguments: StoreBackend.allCases)
    func keptSampleIsRedacted(backend: StoreBackend) async throws {
        let batches = try ["09:00:10", "09:00:50", "09:00:30"].enumerated().map { index, time in
            try StoreFixture.batch(
                at: "2026-11-21T\(time)Z", snippet: #"{"password":"hunter\#(index)","n":\#(index)}"#,
                batchID: "s\(index)")
        }
        try await backend.withFreshDatabase { fixture in
            #expect(try await fixture.sink.commit(batches) == [.stored, .stored, .stored])
            let snippet = try #require(try await fixture.store.fields(Self.window).fields.first?.sample.snippet)
            #expect(snippet.contains(#""n":1"#))
            #expect(!snippet.contains("hunter"))
            #expect(snippet.contains("<redacted>"))
        }
    }
}
