import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// What a store frees when ingest goes quiet is only what makes it faster: counts stay exact across it.
@Suite("Releasing a store's memory")
struct ReleaseMemoryTests {
    @Test("ingest and reads stay exact across releases of the store's caches", arguments: StoreBackend.allCases)
    func exactAcrossReleases(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))
            for round in 0..<3 {
                // The same installs each round: rows the store remembered as committed before the release.
                try await fixture.send(2, install: "install-a")
                try await fixture.send(3, install: "install-b")
                _ = try await fixture.store.fields(window)
                await fixture.store.releaseMemory()
                let field = try #require(try await fixture.store.fields(window).fields.first)
                #expect(field.count == 5 * (round + 1))
                #expect(field.installs == 2)
            }
        }
    }
}
