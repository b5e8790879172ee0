import DecodeWatchCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("decodewatch suggest")
struct SuggestCommandTests {
    @Test(
        "a group's fix by a start of its id: the sentence and the Swift as text, the property as the app's decoder names it",
        arguments: Storage.allCases)
    func suggest(storage: Storage) async throws {
        try await CLI.withExampleCollector(on: storage) { db, port, session in
            let window = CLI.exampleWindow
            let fields = try JSONDecoder().decode(
                FieldsSummary.self,
                from: Data(
                    try CLI.run(["fields", "--format", "json", "--kind", "unknownValue"] + db + window).output.utf8))
            let field = try #require(fields.fields.first)
            #expect(field.suggestion?.remedy == .safeEnum)
            #expect(field.sample.keyDecoding == .convertFromSnakeCase)

            let text = try CLI.run(["suggest", String(field.group.prefix(12))] + db)
            #expect(text.status == 0, "\(text.error)")
            #expect(
                text.output == """
                    \(field.path) in \(field.endpoint) (unknownValue, group \(field.group))

                    $[*].author_association holds a value ("SPONSOR") that AuthorAssociation does not know: make \
                    AuthorAssociation a SafeEnum with an unknown case and add the new case.

                    In the app's model:

                    enum AuthorAssociation: String, SafeEnum {
                        // the cases the app knows, then:
                        case sponsor = "SPONSOR"
                        case unknown
                    }
                    let authorAssociation: AuthorAssociation

                    """)

            let json = try CLI.run(["suggest", field.group, "--format", "json"] + db)
            let entry = try JSONDecoder().decode(FieldSummary.self, from: Data(json.output.utf8))
            #expect(entry.group == field.group)
            #expect(entry.suggestion?.swift == field.suggestion?.swift)
            #expect(entry.firstSeen == field.firstSeen)
        }
    }

    @Test("a group id too short, or one no group has, is refused with a sentence")
    func refused() async throws {
        try CLI.withDatabase(on: .sqlite) { _, db in
            #expect(try CLI.run(["keys", "create", "--create", "--app", "com.example.shop"] + db).status == 0)
            let short = try CLI.run(["suggest", "abcde"] + db)
            #expect(short.status == 64)
            #expect(short.error.contains("The group id 'abcde' is too short"), "\(short.error)")
            let unknown = try CLI.run(["suggest", "abcdef"] + db)
            #expect(unknown.status == 1)
            #expect(unknown.error.contains("No group has the id 'abcdef'"), "\(unknown.error)")
        }
    }
}
