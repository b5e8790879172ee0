import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// What every backend must do with imported contracts: keep each version, judge by the latest, remove by name.
@Suite("ContractStore conformance")
struct ContractStoreTests {
    static func spec(title: String, required: [String]) -> ContractSpec {
        ContractSpec(
            openapi: "3.1.0", title: title, version: "1",
            operations: [
                ContractOperation(
                    method: "GET", path: "/posts/{slug}",
                    responses: [ContractResponse(status: "200", schema: .reference("Post"))])
            ],
            schemas: [
                "Post": ContractSchema(
                    types: ["object"], properties: ["title": ContractSchema(types: ["string"])], required: required)
            ])
    }

    @Test(
        "every import is a version; the latest per name judges, with its schemas intact",
        arguments: StoreBackend.allCases)
    func versions(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            let first = ContractInfo(
                app: "shop", name: "backend", source: "v1.yaml", spec: Self.spec(title: "v1", required: ["title"]),
                at: date("2026-11-21T10:00:00Z"), by: "local:alice")
            let second = ContractInfo(
                app: "shop", name: "backend", source: "v2.yaml", spec: Self.spec(title: "v2", required: []),
                at: date("2026-11-21T11:00:00Z"), by: nil)
            let other = ContractInfo(
                app: "blog", name: "api", source: nil, spec: Self.spec(title: "blog", required: []),
                at: date("2026-11-21T09:00:00Z"), by: nil)
            try await store.insertContract(first, spec: Self.spec(title: "v1", required: ["title"]))
            try await store.insertContract(second, spec: Self.spec(title: "v2", required: []))
            try await store.insertContract(other, spec: Self.spec(title: "blog", required: []))

            #expect(try await store.contracts(app: nil) == [other, second, first])
            #expect(try await store.contracts(app: "shop") == [second, first])
            let current = try await store.currentContracts(app: "shop")
            #expect(current.map(\.info) == [second])
            #expect(current.first?.spec.schemas["Post"]?.properties?["title"]?.types == ["string"])

            let verdict = try await store.contractSet(app: nil).judge(
                app: "shop", endpoint: "GET /posts/{id}", path: "$.title",
                failure: DriftJudge.Failure(kind: .keyNotFound, expected: "String"))
            #expect(verdict?.verdict == .appStricterThanSpec)
        }
    }

    @Test("removing drops every version of a name, and an unknown name is not found", arguments: StoreBackend.allCases)
    func remove(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            for hour in ["10", "11"] {
                let spec = Self.spec(title: hour, required: [])
                try await store.insertContract(
                    ContractInfo(
                        app: "shop", name: "backend", source: nil, spec: spec, at: date("2026-11-21T\(hour):00:00Z"),
                        by: nil),
                    spec: spec)
            }
            #expect(try await store.removeContracts(app: "shop", name: "backend") == 2)
            #expect(try await store.contracts(app: nil).isEmpty)
            let error = await #expect(throws: StoreError.self) {
                try await store.removeContracts(app: "shop", name: "backend")
            }
            #expect(error?.code == .notFound)
        }
    }
}
