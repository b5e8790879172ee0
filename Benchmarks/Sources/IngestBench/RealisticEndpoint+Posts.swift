private typealias Text = DecodingErrorText

extension RealisticEndpoint {
    /// `GET /v2/users/{id}/posts`, sent with a numeric user id and a page query.
    static let posts = RealisticEndpoint(
        raw: { "GET /v2/users/\($0.int(1..<10_000_000))/posts?page=\($0.int(1..<30))" },
        type: "PostsPage",
        shapes: [
            FailureShape(
                path: [.key("results"), .index, .key("title")], kind: "keyNotFound", expected: "String",
                message: { _ in Text.missingKey("title") },
                snippet: { Text.snippet(&$0, "headline") { JSONText.string("Post \($0.int(0..<1000))") } }),
            FailureShape(
                path: [.key("results"), .index, .key("title")], kind: "valueNotFound", expected: "String",
                message: { _ in Text.null("String") }, snippet: { Text.snippet(&$0, "title", "null") }),
            FailureShape(
                path: [.key("results"), .index, .key("author"), .key("avatar_url")], kind: "typeMismatch",
                expected: "URL", message: { _ in Text.mismatch("URL") },
                snippet: { Text.snippet(&$0, "avatar_url") { JSONText.string("not a url \($0.int(0..<100))") } }),
            FailureShape(
                path: [.key("results"), .index, .key("created_at")], kind: "dataCorrupted", expected: "Date",
                message: { _ in Text.notISO8601 },
                snippet: {
                    Text.snippet(&$0, "created_at") { JSONText.string("\($0.int(1..<13))/\($0.int(1..<29))/2026") }
                }
            ),
            FailureShape(
                path: [.key("results"), .index, .key("likes")], kind: "typeMismatch", expected: "Int",
                message: { _ in Text.mismatch("Int") },
                snippet: { Text.snippet(&$0, "likes") { JSONText.string(String($0.int(0..<10000))) } }),
            FailureShape(
                path: [.key("results"), .index, .key("tags"), .index], kind: "typeMismatch", expected: "String",
                message: { _ in Text.mismatch("String", found: "a number") },
                snippet: { Text.snippet(&$0, "tags") { JSONText.array([String($0.int(0..<100)), "\"swift\""]) } }),
            FailureShape(
                path: [.key("next_cursor")], kind: "valueNotFound", expected: "String",
                message: { _ in Text.null("String") }, snippet: { Text.snippet(&$0, "next_cursor", "null") }),
            FailureShape(
                path: [.key("results"), .index, .key("kind")], kind: "unknownValue", expected: "PostKind",
                message: { Text.unknown("PostKind", $0.pick(["reel", "story", "poll"])) },
                snippet: { Text.snippet(&$0, "kind") { JSONText.string($0.pick(["reel", "story", "poll"])) } }),
            FailureShape(
                path: [.key("results"), .index, .key("reactions"), .digitsKey, .key("count")], kind: "typeMismatch",
                expected: "Int", message: { _ in Text.mismatch("Int") },
                snippet: { Text.snippet(&$0, "count") { JSONText.string("\($0.int(1..<99))k") } }),
            FailureShape(
                path: [.key("meta"), .key("total-count")], kind: "keyNotFound", expected: "Int",
                message: { _ in Text.missingKey("total-count") },
                snippet: { Text.snippet(&$0, "totalCount") { String($0.int(0..<100_000)) } }),
        ])
}
