import DecodeWatchCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `GET /v1/groups/{group}` and the group page say beyond decisions: kept samples and the OS breakdown.
@Suite("Group samples and OS versions")
struct GroupDetailTests {
    @Test(
        "a group's samples and OS breakdown come back from the API over the window asked, and show on its page",
        arguments: Storage.allCases)
    func samplesAndOS(storage: Storage) async throws {
        try await CLI.withExampleCollector(on: storage) { db, port, session in
            let fields = try CLI.run(["fields", "--format", "json", "--kind", "unknownValue"] + db + CLI.exampleWindow)
            let group = try #require(
                try JSONDecoder().decode(FieldsSummary.self, from: Data(fields.output.utf8)).fields.first?.group)
            let window = "since=\(CLI.exampleDay)T00:00:00Z&until=\(CLI.exampleDay)T23:00:00Z"
            let url = URL(string: "http://127.0.0.1:\(port)/v1/groups/\(group)?\(window)")!
            let (data, answer) = try await session.data(from: url)
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            struct Detail: Decodable {
                struct Sample: Decodable {
                    let snippet: String?
                    let version: String
                    let os: String
                    let environment: String
                    let seen_at: String
                }
                struct OS: Decodable, Equatable {
                    let os: String
                    let count: Int
                }
                let samples: [Sample]
                let os: [OS]
            }
            let detail = try JSONDecoder().decode(Detail.self, from: data)
            let sample = try #require(detail.samples.first)
            #expect(detail.samples.count == 1)
            #expect(sample.snippet == #""SPONSOR""#)
            #expect(sample.version == "2.4.1" && sample.os == "17.4" && sample.environment == "production")
            #expect(sample.seen_at == "\(CLI.exampleDay)T09:01:02Z")
            #expect(detail.os == [Detail.OS(os: "17.4", count: 3)])

            // A window on another day has no OS counts; the samples stay.
            let before = URL(string: "http://127.0.0.1:\(port)/v1/groups/\(group)?since=30d&until=3d")!
            let (older, _) = try await session.data(from: before)
            let quiet = try JSONDecoder().decode(Detail.self, from: older)
            #expect(quiet.os.isEmpty && quiet.samples.count == 1)
            let bad = URL(string: "http://127.0.0.1:\(port)/v1/groups/\(group)?sinse=1d")!
            let (refusal, refused) = try await session.data(from: bad)
            #expect((refused as? HTTPURLResponse)?.statusCode == 400)
            #expect(String(decoding: refusal, as: UTF8.self).contains("did you mean 'since'?"))

            let page = URL(string: "http://127.0.0.1:\(port)/groups/\(group)?window=7d")!
            let (html, _) = try await session.data(from: page)
            let text = String(decoding: html, as: UTF8.self)
            #expect(text.contains(#"<tr data-os="17.4"><td><code>17.4</code></td><td class="num">3</td>"#))
            #expect(text.contains(#"<code class="snippet">&quot;SPONSOR&quot;</code>"#))
        }
    }
}
