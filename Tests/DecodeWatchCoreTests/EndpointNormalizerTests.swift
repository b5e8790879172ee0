import DecodeWatchCore
import Testing

@Suite("Endpoint normalization (docs/wire-format.md#endpoint)")
struct EndpointNormalizerTests {
    @Test(
        "endpoints normalize to their grouping form",
        arguments: [
            ("get /v2/users/42/posts?page=2", "GET /v2/users/{id}/posts"),
            ("POST https://api.example.com/v1/orders/3F2504E0-4F89-11D3-9A0C-0305E82C3301/", "POST /v1/orders/{id}"),
            ("GET /v2/posts", "GET /v2/posts"),
            ("GET /", "GET /"),
            ("GET //v2///posts//", "GET /v2/posts"),
            ("GET /v2/posts/#comments", "GET /v2/posts"),
            ("GET http://localhost:8080/health?x=1#y", "GET /health"),
            ("GET https://api.github.com", "GET /"),
            ("GET /commits/6dcb09b5b57875f334f61aebed695e2e4193db5e", "GET /commits/{id}"),
            ("GET /blobs/deadbeefcafe1234", "GET /blobs/{id}"),
            ("GET /blobs/deadbeefcafe123", "GET /blobs/deadbeefcafe123"),
            ("GET /users/{userId}/posts/{post_id}", "GET /users/{id}/posts/{id}"),
            ("GET /issues/3f2504e0-4f89-11d3-9a0c-0305e82c3301/labels", "GET /issues/{id}/labels"),
            ("GET /v2/posts/my-first-post", "GET /v2/posts/my-first-post"),
            ("delete /v2/posts/7?force=true", "DELETE /v2/posts/{id}"),
            ("GET /search?q=http://x/1", "GET /search"),
            ("GET /v2/2024/report", "GET /v2/{id}/report"),
            // Read as bytes, like a server reads a request line: a combining mark does not hide a `?` or `/`.
            ("GET /a?\u{301}b", "GET /a"),
            ("GET /caf\u{E9}/\u{301}42", "GET /caf\u{E9}/\u{301}42"),
        ])
    func normalizes(input: String, expected: String) {
        #expect(EndpointNormalizer().normalize(input) == expected)
    }

    @Test(
        "text that is not METHOD /path is refused", arguments: ["/v2/posts", "", "GET", "GET ", "G?T /x", "GET /a b"])
    func refuses(input: String) {
        #expect(EndpointNormalizer().normalize(input) == nil)
    }

    @Test("operator route templates are matched first and keep their own spelling")
    func templates() throws {
        let normalizer = EndpointNormalizer(templates: [try #require(RouteTemplate("get /v2/posts/{slug}"))])
        #expect(normalizer.normalize("GET /v2/posts/my-first-post?x=1") == "GET /v2/posts/{slug}")
        #expect(normalizer.normalize("GET /v2/posts/42") == "GET /v2/posts/{slug}")
        #expect(normalizer.normalize("POST /v2/posts/my-first-post") == "POST /v2/posts/my-first-post")
        #expect(normalizer.normalize("GET /v2/posts/a/b") == "GET /v2/posts/a/b")
    }
}

@Suite("Path rendering (docs/wire-format.md#path)")
struct PathRendererTests {
    @Test(
        "coding paths render as wildcard JSONPath",
        arguments: [
            ([PathElement.key("results"), .index(1), .key("title")], "$.results[*].title"),
            ([.key("users"), .key("8231"), .key("e-mail")], "$.users[*]['e-mail']"),
            ([], "$"),
            ([.index(0), .index(3)], "$[*][*]"),
            ([.key("files"), .key("it's.md")], #"$.files['it\'s.md']"#),
            ([.key("files"), .key("it'\u{301}s.md")], "$.files['it\\'\u{301}s.md']"),
            ([.key("files"), .key(#"C:\temp\notes.txt"#)], #"$.files['C:\\temp\\notes.txt']"#),
            ([.key("files"), .key(#"say "hi".txt"#)], #"$.files['say "hi".txt']"#),
            ([.key("files"), .key("2024")], "$.files[*]"),
            ([.key("files"), .key("deadbeefcafe1234")], "$.files[*]"),
            ([.key("files"), .key("deadbeefcafe123")], "$.files.deadbeefcafe123"),
            ([.key("files"), .key("3F2504E0-4F89-11D3-9A0C-0305E82C3301")], "$.files[*]"),
            ([.key("files"), .key("naïve.txt")], "$.files['naïve.txt']"),
            ([.key("reactions"), .key("+1")], "$.reactions['+1']"),
            ([.key("reactions"), .key("-1")], "$.reactions['-1']"),
            ([.key("3d-model.obj")], "$['3d-model.obj']"),
            ([.key("_links"), .key("self")], "$._links.self"),
            ([.key("a.b")], "$['a.b']"),
            ([.key("")], "$['']"),
        ] as [([PathElement], String)])
    func renders(path: [PathElement], expected: String) {
        #expect(PathRenderer.render(path) == expected)
    }
}
