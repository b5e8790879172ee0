import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The CLI never turns a typo, an unknown baseline or a mute into "nothing broke", on the database and through a
/// collector alike.
@Suite("Commands say what they never saw")
struct TrueAnswerCommandTests {
    static let app = CheckCommandTests.app

    @Test("fields with a value never stored exits 1 naming it and the known values; --status muted lists mutes")
    func unknownValuesAndMutes() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            let body = try CheckCommandTests.batch(version: "5.2.0", failures: ["title": 10, "author": 3])
            #expect(
                try await TestHTTPClient(port: port, session: session).post(batch: body, encoding: "deflate").status
                    == 202)
            let remote = ["--url", "http://127.0.0.1:\(port)"]
            for source in [db, remote] {
                let typo = try CLI.run(["fields", "--app", "com.exmaple.shop"] + source)
                #expect(typo.status == 1)
                #expect(typo.output.isEmpty)
                #expect(
                    typo.error.contains(
                        "Error: no reports from app 'com.exmaple.shop'; known apps: \(Self.app)."), "\(typo.error)")
                let version = try CLI.run(
                    ["fields", "--app", Self.app, "--version", "5.3", "--format", "json"] + source)
                #expect(version.status == 1)
                let document = try JSONDecoder().decode(FieldsSummary.self, from: Data(version.output.utf8))
                #expect(document.warnings.map(\.code) == ["unknown_version"])
                #expect(
                    version.error.contains("no reports from version '5.3' of app '\(Self.app)'; known versions: 5.2.0.")
                )
                let known = try CLI.run(["fields", "--app", Self.app] + source)
                #expect(known.status == 0)
            }

            let fields = try JSONDecoder().decode(
                FieldsSummary.self, from: Data(try CLI.run(["fields", "--format", "json"] + db).output.utf8))
            let group = try #require(fields.fields.first { $0.path == "$.results[*].title" }?.group)
            #expect(try CLI.run(["mute", group, "--for", "24h"] + db).status == 0)
            for source in [db, remote] {
                let muted = try CLI.run(["fields", "--status", "muted", "--format", "json"] + source)
                #expect(muted.status == 0, "\(muted.error)")
                let listed = try JSONDecoder().decode(FieldsSummary.self, from: Data(muted.output.utf8))
                #expect(listed.fields.map(\.group) == [group])
                #expect(listed.fields.first?.status == .muted)
                #expect(listed.fields.first?.mute?.until != nil)
                let table = try CLI.run(["fields", "--status", "muted"] + source)
                #expect(table.output.contains("muted until "))
                let csv = try CLI.run(["fields", "--format", "csv"] + source)
                #expect(csv.output.hasPrefix("group,app,endpoint,path,kind"))
                #expect(csv.output.split(separator: "\n").contains { $0.hasPrefix(group) && $0.contains(",muted,") })
                let open = try CLI.run(["fields", "--status", "new", "--format", "json"] + source)
                let openGroups = try JSONDecoder().decode(FieldsSummary.self, from: Data(open.output.utf8)).fields
                #expect(!openGroups.isEmpty && !openGroups.contains { $0.group == group })
            }
            let bad = try CLI.run(["fields", "--status", "silenced"] + db)
            #expect(bad.status == 64)
            #expect(bad.error.contains("'silenced' is not a status"))
        }
    }

    @Test("check against a baseline that never sent anything is insufficient (exit 2) and names the baseline")
    func baselineNeverSeen() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            let body = try CheckCommandTests.batch(version: "5.2.0", failures: ["title": 1])
            #expect(
                try await TestHTTPClient(port: port, session: session).post(batch: body, encoding: "gzip").status == 202
            )
            let asked = [
                "check", "--app", Self.app, "--version", "5.2.0", "--baseline", "5.1.9", "--min-decodes", "100",
            ]
            for source in [db, ["--url", "http://127.0.0.1:\(port)"]] {
                let result = try CLI.run(asked + source)
                #expect(result.status == 2, "\(result.error)")
                #expect(
                    result.output.hasPrefix(
                        "INSUFFICIENT: \(Self.app) 5.2.0 cannot be judged against 5.1.9: no decodes of 5.1.9"))
                #expect(
                    result.error.contains(
                        "Warning: no reports from version '5.1.9' of app '\(Self.app)'; known versions: 5.2.0."))
            }
        }
    }
}
