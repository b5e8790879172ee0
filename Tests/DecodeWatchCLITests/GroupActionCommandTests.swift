import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("mute, unmute and resolve --in-next-version")
struct GroupActionCommandTests {
    @Test(
        "serve's dashboard answers from the installed templates; mute and unmute show in the API and the page",
        arguments: Storage.allCases)
    func muteUnmuteThroughServe(storage: Storage) async throws {
        try await CLI.withExampleCollector(on: storage) { db, port, session in
            let base = "http://127.0.0.1:\(port)"
            let window = CLI.exampleWindow
            let fields = try CLI.run(["fields", "--format", "json"] + db + window)
            let group = try #require(
                try JSONDecoder().decode(FieldsSummary.self, from: Data(fields.output.utf8)).fields.first?.group)

            let muted = try CLI.run(["mute", group, "--count", "5"] + db)
            #expect(muted.status == 0, "\(muted.error)")
            #expect(muted.output == "Muted \(group) until 5 more failures.\n")
            let api = TestHTTPClient(port: port, session: session)
            let state = try await api.get("/v1/groups/\(group)").decoded(GroupAnswer.self)
            #expect(state.muted)
            #expect(state.mutedFailuresLeft == 5)

            let (page, response) = try await session.data(from: URL(string: base + "/groups/\(group)")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: page, as: UTF8.self).contains("muted for 5 more failures"))

            #expect(try CLI.run(["unmute", group] + db).status == 0)
            #expect(try await !api.get("/v1/groups/\(group)").decoded(GroupAnswer.self).muted)

            let next = try CLI.run(["resolve", group, "--in-next-version"] + db)
            #expect(next.output == "Resolved \(group) in the next version.\n")
            let resolved = try CLI.run(["fields", "--format", "json"] + db + window)
            #expect(
                try JSONDecoder().decode(FieldsSummary.self, from: Data(resolved.output.utf8)).fields.first {
                    $0.group == group
                }?.status == .resolved)
        }
    }

    @Test(
        "mute needs exactly one of --for and --count, each well formed, and says so in one line",
        arguments: [[String](), ["--for", "soon"], ["--count", "0"], ["--for", "1h", "--count", "2"]])
    func badMute(arguments: [String]) throws {
        let result = try CLI.run(["mute", "0123456789abcdef", "--db", "/nonexistent/folder/x.sqlite"] + arguments)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: "), "\(result.error)")
    }
}
