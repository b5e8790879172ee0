import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// The dashboard over HTTP: rows, tabs, filters, actions, sign-in, cookies and CSRF.
@Suite("Dashboard pages")
struct DashboardTests {
    /// Two groups of one app: titles (5 failures, 5.2.0, in production) and prices (2 failures, 5.1.0, in
    /// staging), with decodes.
    static func seed(_ collector: TestCollector) async throws {
        let decodes: [[String: Any]] = [["endpoint": "GET /v2/posts", "count": 200]]
        _ = try await collector.ingest(
            Batches.batch(
                version: "5.2.0", decodes: decodes,
                reports: [Batches.report(count: 5, snippet: "{\"id\":\"pos_2\",\"owner\":\"ann@example.com\"}")]))
        _ = try await collector.ingest(
            Batches.batch(
                version: "5.1.0", environment: "staging",
                reports: [
                    Batches.report(
                        endpoint: "GET /v2/products", path: ["items", 0, "price"], kind: "typeMismatch", count: 2)
                ]))
    }

    static func group(_ path: String, endpoint: String = "GET /v2/posts", kind: ReportKind = .keyNotFound) -> String {
        GroupKey(app: "com.example.shop", endpoint: endpoint, path: path, kind: kind).id
    }

    @Test("the list shows one row per group with its numbers, and tabs count by status")
    func listRows() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let page = try await DashboardClient(collector.baseURL).send("GET", "/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            let html = page.text
            #expect(html.components(separatedBy: "<tr data-group=").count - 1 == 2)
            #expect(html.contains("data-group=\"\(Self.group("$.results[*].title"))\" data-status=\"new\""))
            #expect(html.contains("<code>$.items[*].price</code>"))
            #expect(html.contains("2.5%"))  // 5 failures in 200 decodes
            #expect(html.contains("data-tab=\"new\">New <span class=\"num\">2</span>"))
            #expect(html.contains("data-tab=\"resolved\">Resolved <span class=\"num\">0</span>"))
            #expect(!html.contains("ann@example.com"))
        }
    }

    @Test("120 groups make three pages of 50, 50 and 20 rows, most failing first, linked to each other")
    func pages() async throws {
        try await TestCollector.run { collector in
            let reports = (1...120).map { (index: Int) in Batches.report(path: ["field\(index)"], count: index) }
            for chunk in stride(from: 0, to: reports.count, by: 40) {
                _ = try await collector.ingest(Batches.batch(reports: Array(reports[chunk..<(chunk + 40)])))
            }
            let client = DashboardClient(collector.baseURL)
            func rows(_ html: String) -> Int { html.components(separatedBy: "<tr data-group=").count - 1 }
            let first = try await client.send("GET", "/")
            #expect(rows(first.text) == 50)
            #expect(first.text.contains("Page 1 of 3 · 120 fields"))
            #expect(first.text.contains("data-group=\"\(Self.group("$.field120"))\""))
            #expect(first.text.contains("href=\"/?page=2\" rel=\"next\""))
            let last = try await client.send("GET", "/?page=3")
            #expect(rows(last.text) == 20)
            #expect(last.text.contains("data-group=\"\(Self.group("$.field1"))\""))
            #expect(!last.text.contains("data-group=\"\(Self.group("$.field120"))\""))
            #expect(last.text.contains("rel=\"prev\""))
            #expect(!last.text.contains("rel=\"next\""))
            let beyond = try await client.send("GET", "/?page=9")
            #expect(beyond.text.contains("Page 3 of 3"))
        }
    }

    @Test("filters from a form's query string, with + for spaces, narrow the rows")
    func filtersWithPlus() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let client = DashboardClient(collector.baseURL)
            let byEndpoint = try await client.send("GET", "/?endpoint=GET+%2Fv2%2Fproducts&kind=&window=7d")
            #expect(byEndpoint.status == 200)
            #expect(byEndpoint.text.components(separatedBy: "<tr data-group=").count - 1 == 1)
            #expect(byEndpoint.text.contains("value=\"GET /v2/products\""))
            let byVersion = try await client.send("GET", "/?version=5.2.0")
            #expect(byVersion.text.contains("data-group=\"\(Self.group("$.results[*].title"))\""))
            #expect(byVersion.text.components(separatedBy: "<tr data-group=").count - 1 == 1)
            try await client.expectListRefused("kind=nonsense", saying: "kind &#39;nonsense&#39; is unknown")
        }
    }

    @Test("a resolve through the group page's form changes the status in the page, the API and storage")
    func resolveThroughForm() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let group = Self.group("$.results[*].title")
            let client = DashboardClient(collector.baseURL)
            let page = try await client.send("GET", "/groups/\(group)")
            #expect(page.status == 200)
            let csrf = try #require(DashboardClient.csrf(in: page.text))
            #expect(client.cookies["dw_csrf"] == csrf)
            let posted = try await client.send(
                "POST", "/groups/\(group)/actions", form: ["csrf": csrf, "action": "resolve"])
            #expect(posted.status == 303)
            #expect(posted.header("Location") == "/groups/\(group)")
            let after = try await client.send("GET", "/groups/\(group)")
            #expect(after.text.contains("data-status=\"resolved\""))
            #expect(after.text.contains("data-action=\"resolve\""))
            let list = try await client.send("GET", "/?status=resolved")
            #expect(list.text.contains("data-group=\"\(group)\" data-status=\"resolved\""))
            #expect(try await collector.fields().fields.first { $0.group == group }?.status == .resolved)
            let stored = try await collector.store.decidedFields(
                FieldsQuery(since: Date().addingTimeInterval(-86_400), until: Date()), now: Date())
            #expect(stored.summary.fields.first { $0.group == group }?.status == .resolved)
        }
    }

    @Test("a form post without the CSRF cookie's token is refused and changes nothing")
    func csrfRequired() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let group = Self.group("$.results[*].title")
            let client = DashboardClient(collector.baseURL)
            _ = try await client.send("GET", "/groups/\(group)")
            let forged = try await client.send(
                "POST", "/groups/\(group)/actions",
                form: ["csrf": String(repeating: "0", count: 32), "action": "resolve"])
            #expect(forged.status == 403)
            #expect(try await collector.fields().fields.first { $0.group == group }?.status == .new)
        }
    }

    @Test("mute and unmute through the forms move a group to the muted tab and back")
    func muteThroughForms() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let group = Self.group("$.results[*].title")
            let client = DashboardClient(collector.baseURL)
            let csrf = try #require(DashboardClient.csrf(in: try await client.send("GET", "/groups/\(group)").text))
            let muted = try await client.send(
                "POST", "/groups/\(group)/actions", form: ["csrf": csrf, "action": "mute", "for": "24h"])
            #expect(muted.status == 303)
            let tab = try await client.send("GET", "/?status=muted")
            #expect(tab.text.contains("data-group=\"\(group)\""))
            let newTab = try await client.send("GET", "/?status=new")
            #expect(!newTab.text.contains("data-group=\"\(group)\""))
            let badCount = try await client.send(
                "POST", "/groups/\(group)/actions", form: ["csrf": csrf, "action": "mute", "count": "0"])
            #expect(badCount.status == 400)
            _ = try await client.send("POST", "/groups/\(group)/actions", form: ["csrf": csrf, "action": "unmute"])
            let back = try await client.send("GET", "/?status=new")
            #expect(back.text.contains("data-group=\"\(group)\""))
        }
    }

    @Test("with read tokens, a viewer without one is sent to sign in and sees no field or snippet")
    func signInRequired() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let (token, _) = try await collector.createCredential(.read)
            let group = Self.group("$.results[*].title")
            let client = DashboardClient(collector.baseURL)
            for path in ["/", "/groups/\(group)", "/?status=new"] {
                let answer = try await client.send("GET", path)
                #expect(answer.status == 303, "\(path)")
                #expect(answer.header("Location")?.hasPrefix("/login?next=") == true)
                #expect(!answer.text.contains("results"))
            }
            let form = try await client.send("GET", "/login?next=%2Fgroups%2F\(group)")
            let csrf = try #require(DashboardClient.csrf(in: form.text))
            let wrong = try await client.send(
                "POST", "/login", form: ["csrf": csrf, "token": "dwr_wrong", "next": "/"])
            #expect(wrong.status == 401)
            #expect(client.cookies["dw_session"] == nil)
            let signed = try await client.send(
                "POST", "/login", form: ["csrf": csrf, "token": token, "next": "/groups/\(group)"],
                headers: ["X-Forwarded-Proto": "https"])
            #expect(signed.status == 303)
            #expect(signed.header("Location") == "/groups/\(group)")
            let cookie = try #require(signed.setCookies.first { $0.hasPrefix("dw_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.lowercased().contains("samesite=strict"))
            #expect(cookie.contains("Secure"))
            let page = try await client.send("GET", "/groups/\(group)")
            #expect(page.status == 200)
            #expect(page.text.contains("&lt;redacted&gt;"))
            #expect(page.text.contains("Sign out"))
            let away = try await client.send(
                "POST", "/login", form: ["csrf": csrf, "token": token, "next": "//evil.example"])
            #expect(away.header("Location") == "/")
        }
    }

    @Test(
        "the session cookie holds a random id, never the token; signing out ends it for a copied cookie too, and so does revoking the token"
    )
    func sessionsNotTokens() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let (token, credential) = try await collector.createCredential(.read)
            func signIn() async throws -> (DashboardClient, String) {
                let client = DashboardClient(collector.baseURL)
                let csrf = try #require(DashboardClient.csrf(in: try await client.send("GET", "/login").text))
                let signed = try await client.send("POST", "/login", form: ["csrf": csrf, "token": token, "next": "/"])
                #expect(signed.status == 303)
                return (client, try #require(client.cookies["dw_session"]))
            }
            let (client, session) = try await signIn()
            #expect(session != token && !session.contains(token) && session.count == 64)
            #expect(try await client.send("GET", "/").status == 200)
            // A copy of the cookie, as a thief would replay it, works until the owner signs out.
            let copy = DashboardClient(collector.baseURL)
            copy.setCookie("dw_session", session)
            #expect(try await copy.send("GET", "/").status == 200)
            let csrf = try #require(client.cookies["dw_csrf"])
            #expect(try await client.send("POST", "/logout", form: ["csrf": csrf]).status == 303)
            #expect(try await copy.send("GET", "/").status == 303)

            let (second, _) = try await signIn()
            #expect(try await second.send("GET", "/").status == 200)
            try await collector.store.revokeCredential(id: credential.id, kind: .read, at: Date(), by: "local:test")
            #expect(try await second.send("GET", "/").status == 303)
        }
    }

    @Test(
        "a session of a read-scoped token sees no decision forms, only the scope they need, and its posts are refused with 403; a triage session sees and takes them"
    )
    func decisionsFollowScope() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let group = Self.group("$.results[*].title")
            func signIn(_ scope: TokenScope) async throws -> (DashboardClient, csrf: String, token: String) {
                let (token, _) = try await collector.createCredential(.read, scope: scope)
                let client = DashboardClient(collector.baseURL)
                let csrf = try #require(DashboardClient.csrf(in: try await client.send("GET", "/login").text))
                let signed = try await client.send("POST", "/login", form: ["csrf": csrf, "token": token, "next": "/"])
                #expect(signed.status == 303)
                return (client, csrf, token)
            }
            let (reader, readerCSRF, token) = try await signIn(.read)
            let page = try await reader.send("GET", "/groups/\(group)")
            #expect(page.status == 200)
            for action in ["resolve", "resolve-in-next-version", "mute"] {
                #expect(!page.text.contains("name=\"action\" value=\"\(action)\""), "\(action)")
            }
            #expect(page.text.contains("data-needs-scope"))
            #expect(page.text.contains("needs a token with the &#39;triage&#39; scope; this token has &#39;read&#39;"))
            for form in [["action": "resolve"], ["action": "mute", "for": "24h"], ["action": "unmute"]] {
                let refused = try await reader.send(
                    "POST", "/groups/\(group)/actions", form: form.merging(["csrf": readerCSRF]) { $1 })
                #expect(refused.status == 403, "\(form)")
                #expect(refused.text.contains("scope"), "\(form)")
            }
            #expect(try await collector.fields(token: token).fields.first { $0.group == group }?.status == .new)

            let (triager, triagerCSRF, _) = try await signIn(.triage)
            let offered = try await triager.send("GET", "/groups/\(group)")
            #expect(offered.text.contains("name=\"action\" value=\"resolve\""))
            #expect(offered.text.contains("name=\"action\" value=\"mute\""))
            #expect(!offered.text.contains("data-needs-scope"))
            let resolved = try await triager.send(
                "POST", "/groups/\(group)/actions", form: ["csrf": triagerCSRF, "action": "resolve"])
            #expect(resolved.status == 303)
            #expect(try await collector.fields(token: token).fields.first { $0.group == group }?.status == .resolved)
        }
    }

    @Test("without TLS the session cookie is not marked Secure")
    func cookieWithoutTLS() async throws {
        try await TestCollector.run { collector in
            let (token, _) = try await collector.createCredential(.read)
            let client = DashboardClient(collector.baseURL)
            let csrf = try #require(DashboardClient.csrf(in: try await client.send("GET", "/login").text))
            let signed = try await client.send("POST", "/login", form: ["csrf": csrf, "token": token, "next": "/"])
            let cookie = try #require(signed.setCookies.first { $0.hasPrefix("dw_session=") })
            #expect(!cookie.contains("Secure"))
            #expect(try await client.send("GET", "/").status == 200)
        }
    }

    /// ``seed`` (titles in production, prices in staging) and 3 title failures in staging over 10 decodes.
    static func seedStaging(_ collector: TestCollector) async throws {
        try await seed(collector)
        _ = try await collector.ingest(
            Batches.batch(
                decodes: [["endpoint": "GET /v2/posts", "count": 10]], environment: "staging",
                reports: [Batches.report(count: 3)]))
    }

    @Test("the environment filter lists one environment's counts and rates, offers the known ones and stays in links")
    func environmentFilter() async throws {
        try await TestCollector.run(seed: Self.seedStaging) { collector in
            let client = DashboardClient(collector.baseURL)
            let title = Self.group("$.results[*].title")
            func rows(_ html: String) -> Int { html.components(separatedBy: "<tr data-group=").count - 1 }

            let staging = try await client.send("GET", "/?environment=staging")
            #expect(staging.status == 200)
            #expect(rows(staging.text) == 2)
            #expect(staging.text.contains("<td class=\"num\" data-count=\"3\">3</td>"))
            #expect(staging.text.contains("30%"))  // 3 failures in staging's 10 decodes
            #expect(!staging.text.contains("data-count=\"5\""))
            #expect(
                staging.text.contains(
                    "<select name=\"environment\"><option value=\"\">All environments</option>"
                        + "<option value=\"production\">production</option>"
                        + "<option value=\"staging\" selected>staging</option></select>"))
            #expect(staging.text.contains("href=\"/groups/\(title)?environment=staging\""))
            #expect(staging.text.contains("environment=staging\" data-tab=\"new\""))

            let production = try await client.send("GET", "/?environment=production&window=7d")
            #expect(rows(production.text) == 1)
            #expect(production.text.contains("<td class=\"num\" data-count=\"5\">5</td>"))
            #expect(production.text.contains("href=\"/groups/\(title)?window=7d&amp;environment=production\""))

            let every = try await client.send("GET", "/")
            #expect(every.text.contains("<td class=\"num\" data-count=\"8\">8</td>"))
            #expect(every.text.contains("<option value=\"\" selected>All environments</option>"))

            try await client.expectListRefused(
                "environment=no+spaces", saying: "environment &#39;no spaces&#39; must be 1–64 characters")
        }
    }

    @Test("the group page lists each environment's failures in the window, first and last seen, and links back")
    func groupEnvironments() async throws {
        try await TestCollector.run(seed: Self.seedStaging) { collector in
            let title = Self.group("$.results[*].title")
            let page = try await DashboardClient(collector.baseURL).send(
                "GET", "/groups/\(title)?environment=staging")
            #expect(page.status == 200)
            let html = page.text
            let section = try #require(
                html.range(of: "id=\"environments-h\"").map { String(html[$0.upperBound...].prefix(2_000)) })
            let production = try #require(
                section.range(
                    of: "<tr data-environment=\"production\"><td><code>production</code></td><td class=\"num\">5</td>"))
            let staging = try #require(
                section.range(
                    of: "<tr data-environment=\"staging\" aria-current=\"true\"><td><code>staging</code></td>"
                        + "<td class=\"num\">3</td>"))
            #expect(production.lowerBound < staging.lowerBound, "most failures first")
            #expect(html.contains("<a href=\"/?environment=staging\">← All breaking fields</a>"))
            #expect(html.contains("<input type=\"hidden\" name=\"environment\" value=\"staging\">"))
        }
    }

    @Test("an unknown group's page is a 404 page, not an error body")
    func unknownGroup() async throws {
        try await TestCollector.run { collector in
            let answer = try await DashboardClient(collector.baseURL).send("GET", "/groups/0123456789abcdef")
            #expect(answer.status == 404)
            #expect(answer.text.contains("No such group"))
        }
    }
}
