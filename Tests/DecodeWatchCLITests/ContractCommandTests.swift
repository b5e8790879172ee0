import DecodeWatchCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("decodewatch contracts and drift")
struct ContractCommandTests {
    static let spec = CLI.repository.appendingPathComponent("SDK/Tests/DecodeWatchTests/Fixtures/github-openapi.yaml")

    @Test(
        "an imported spec judges stored fields in drift and fields; a broken spec is refused in one line and stores nothing",
        arguments: Storage.allCases)
    func importJudgeRemove(storage: Storage) async throws {
        try await CLI.withDatabase(on: storage) { folder, db in
            let server = try CLI.start(["serve", "--port", "0"] + db)
            let port = try await server.port()
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            #expect(try await CLI.postExampleBatch(port: port, session: session).status == 202)
            let window = CLI.exampleWindow

            // A $ref to a schema that does not exist: one line naming the file and the place, and nothing stored.
            let broken = folder.appendingPathComponent("broken.yaml")
            try String(contentsOf: Self.spec, encoding: .utf8)
                .replacingOccurrences(of: "#/components/schemas/label'", with: "#/components/schemas/labl'")
                .write(to: broken, atomically: true, encoding: .utf8)
            let refused = try CLI.run(
                ["contracts", "import", broken.path, "--create", "--app", "com.example.octo"] + db)
            #expect(refused.status != 0)
            #expect(refused.error.contains("broken.yaml: "), "\(refused.error)")
            #expect(refused.error.contains("'#/components/schemas/labl' does not exist"), "\(refused.error)")
            let listed = try CLI.run(["contracts", "list", "--format", "json"] + db).output
            #expect((try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [Any])?.isEmpty == true, "\(listed)")

            let imported = try CLI.run(
                ["contracts", "import", Self.spec.path, "--create", "--app", "com.example.octo", "--name", "github"]
                    + db)
            #expect(imported.status == 0, "\(imported.error)")
            #expect(imported.output.contains("Imported 'github' for com.example.octo"))
            #expect(try CLI.run(["contracts", "list"] + db).output.contains("github"))

            let drift = try CLI.run(["drift", "--format", "json"] + db + window)
            #expect(drift.status == 0, "\(drift.error)")
            let report = try JSONDecoder().decode(DriftReport.self, from: Data(drift.output.utf8))
            let verdicts = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.path, $0.verdict) })
            // SPONSOR is outside the spec's enum, and the spec's color is the String the app expected: the backend's
            // fault; the gists endpoint is not in the excerpt.
            #expect(verdicts["$[*].author_association"] == .backendViolatesSpec, "\(verdicts)")
            #expect(verdicts["$[*].color"] == .backendViolatesSpec, "\(verdicts)")
            #expect(report.entries.first { $0.path.hasSuffix(".raw_url") }?.verdict == .notInSpec, "\(verdicts)")
            let fields = try JSONDecoder().decode(
                FieldsSummary.self, from: Data(try CLI.run(["fields", "--format", "json"] + db + window).output.utf8))
            #expect(fields.fields.allSatisfy { $0.drift != nil })

            // The dashboard's group page shows the verdict and who fixes it.
            let color = try #require(report.entries.first { $0.path == "$[*].color" })
            let (page, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)/groups/\(color.group)")!)
            let html = String(decoding: page, as: UTF8.self)
            #expect(html.contains(#"data-verdict="backend_violates_spec""#), "\(html)")
            #expect(html.contains("backend team"))
            // The list marks each row with its verdict (the reports are from yesterday: a 7-day window).
            let (list, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)/?window=7d")!)
            let rows = String(decoding: list, as: UTF8.self)
            #expect(rows.components(separatedBy: #"class="badge v-backend_violates_spec""#).count - 1 == 2, "\(rows)")
            #expect(rows.contains(#"class="badge v-not_in_spec""#))
            #expect(try await server.terminate() == 0)

            // The digest names the fields the backend team can act on.
            let digest = try CLI.run(["digest", "--since", "\(CLI.exampleDay)T00:00:00Z"] + db)
            #expect(digest.status == 0, "\(digest.error)")
            #expect(digest.output.contains("2 fields where the backend breaks its spec"), "\(digest.output)")

            #expect(try CLI.run(["contracts", "remove", "github", "--app", "com.example.octo"] + db).status == 0)
            let after = try JSONDecoder().decode(
                DriftReport.self, from: Data(try CLI.run(["drift", "--format", "json"] + db + window).output.utf8))
            #expect(after.entries.isEmpty)
        }
    }
}
