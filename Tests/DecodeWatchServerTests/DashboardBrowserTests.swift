import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

/// The dashboard in a real headless Chromium (Debian's `chromium`), loading pages from the real server
/// with data ingested through `POST /v1/reports`; screenshots and pages are kept under
/// `.build/test-artifacts/dashboard`, and every page must parse without errors (html5lib, strict).
@Suite("Dashboard in a browser", .serialized)
struct DashboardBrowserTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let artifacts = packageRoot.appendingPathComponent(".build/test-artifacts/dashboard")

    /// A headless Chromium run on its own profile folder.
    struct Browser {
        let executable: String
        let profile: URL

        static func find() -> Browser? {
            let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                    let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
                        "dashboard-chromium-\(UUID().uuidString)")
                    return Browser(executable: "\(folder)/\(name)", profile: profile)
                }
            }
            return nil
        }

        /// The DOM after load, at a window width.
        func dom(_ url: URL, width: Int = 1440) throws -> String {
            try Self.run(executable, flags(width) + ["--dump-dom", url.absoluteString])
        }

        /// A PNG of the page at a window width.
        func screenshot(_ url: URL, width: Int, to file: URL) throws -> Data {
            _ = try Self.run(executable, flags(width) + ["--screenshot=\(file.path)", url.absoluteString])
            return try Data(contentsOf: file)
        }

        private func flags(_ width: Int) -> [String] {
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--hide-scrollbars", "--user-data-dir=\(profile.path)", "--window-size=\(width),900",
            ]
        }

        /// Runs a program to its end (at most `timeout` seconds) and returns its standard output.
        static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 90) throws -> String {
            try Subprocess.run(URL(fileURLWithPath: executable), arguments, timeout: timeout).output
        }
    }

    /// The interpreter with html5lib: `DECODEWATCH_HTML5LIB_PYTHON`, else `.build/html-check-venv/bin/python`.
    static func html5libPython() -> String? {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["DECODEWATCH_HTML5LIB_PYTHON"],
            packageRoot.appendingPathComponent(".build/html-check-venv/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(
        "Chromium shows rows, tabs, filters and the group page at 375 and 1440 px, and a form resolve shows everywhere",
        .timeLimit(.minutes(5)))
    func pagesAndResolve() async throws {
        guard let browser = Browser.find() else {
            Issue.record("chromium is not installed: apt-get install -y chromium, then run this test again.")
            return
        }
        defer { try? FileManager.default.removeItem(at: browser.profile) }
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        try await TestCollector.run { collector in
            try await DashboardTests.seed(collector)
            let title = DashboardTests.group("$.results[*].title")
            let price = DashboardTests.group("$.items[*].price", endpoint: "GET /v2/products", kind: .typeMismatch)
            let url = { (path: String) in URL(string: path, relativeTo: collector.baseURL)!.absoluteURL }

            let list = try browser.dom(url("/"))
            #expect(list.contains("<h1>Breaking fields</h1>"))
            #expect(list.components(separatedBy: "<tr data-group=").count - 1 == 2)
            #expect(list.contains("data-group=\"\(title)\" data-status=\"new\""))
            #expect(list.contains("aria-current=\"page\" data-tab=\"all\""))
            #expect(list.contains("<span class=\"spark\""))

            let filtered = try browser.dom(url("/?endpoint=GET+%2Fv2%2Fproducts&status=new"))
            #expect(filtered.contains("data-group=\"\(price)\""))
            #expect(!filtered.contains("data-group=\"\(title)\""))
            #expect(filtered.contains("aria-current=\"page\" data-tab=\"new\""))

            let group = try browser.dom(url("/groups/\(title)"))
            #expect(group.contains("<code>$.results[*].title</code>"))
            #expect(group.contains("<svg class=\"chart\""))
            #expect(group.contains("data-version=\"5.2.0\""))
            #expect(group.contains("&lt;redacted&gt;"))
            #expect(group.contains("href=\"/v1/fields?app=com.example.shop&amp;endpoint=GET+%2Fv2%2Fposts"))

            for (name, path) in [("list", "/"), ("group", "/groups/\(title)")] {
                for width in [375, 1440] {
                    let file = Self.artifacts.appendingPathComponent("\(name)-\(width).png")
                    let png = try browser.screenshot(url(path), width: width, to: file)
                    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) at \(width) px")
                    #expect(png.count > 5_000, "\(name) at \(width) px")
                }
            }

            // The resolve form, posted as the browser would: with the CSRF cookie and its token.
            let client = DashboardClient(collector.baseURL)
            let csrf = try #require(DashboardClient.csrf(in: try await client.send("GET", "/groups/\(title)").text))
            let posted = try await client.send(
                "POST", "/groups/\(title)/actions", form: ["csrf": csrf, "action": "resolve"])
            #expect(posted.status == 303)
            let resolvedTab = try browser.dom(url("/?status=resolved"))
            #expect(resolvedTab.contains("data-group=\"\(title)\" data-status=\"resolved\""))
            #expect(!resolvedTab.contains("data-group=\"\(price)\""))
            #expect(try browser.dom(url("/groups/\(title)")).contains("data-status=\"resolved\""))
            #expect(try await collector.fields().fields.first { $0.group == title }?.status == .resolved)
            let stored = try await collector.store.decidedFields(
                FieldsQuery(since: Date().addingTimeInterval(-86_400), until: Date()), now: Date())
            #expect(stored.summary.fields.first { $0.group == title }?.status == .resolved)
        }
    }

    @Test(
        "at 375, 768 and 1440 px no page scrolls sideways; on a phone a path takes at most two lines and the filters fold",
        .timeLimit(.minutes(3)))
    func phoneSizedPages() async throws {
        guard let python = Self.html5libPython() else {
            Issue.record(
                "Python with websocket-client is missing: see scripts/check-layout.py, then run this test again.")
            return
        }
        try await TestCollector.run { collector in
            try await DashboardTests.seedStaging(collector)
            // A path as long as real apps' nested models make, and an endpoint with ids and a query.
            let deep: [Any] = [
                "data", "orders", 3, "fulfillments", 0, "shipments", 12, "trackingEvents", 4, "location", "address",
                "postalCode",
            ]
            _ = try await collector.ingest(
                Batches.batch(
                    reports: [Batches.report(endpoint: "GET /v3/orders/8812345/fulfillments?page=3", path: deep)]))
            let title = DashboardTests.group("$.results[*].title")
            let base = collector.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let pages = [
                "list=\(base)/", "filtered=\(base)/?kind=keyNotFound", "group=\(base)/groups/\(title)",
                "login=\(base)/login", "environment=\(base)/?environment=staging",
                "group-environment=\(base)/groups/\(title)?environment=staging",
            ]
            let script = Self.packageRoot.appendingPathComponent("scripts/check-layout.py").path
            let output = try Browser.run(
                python, [script, "--out", Self.artifacts.path, "--widths", "375,768,1440"] + pages)
            struct Measure: Decodable {
                let name: String
                let width: Int
                let scroll_width: Int
                let client_width: Int
                let overflow: [String]
                let filters_shown: Bool?
                let path_lines: Int?
                let screenshot: String
            }
            let measures = try output.split(separator: "\n").map {
                try JSONDecoder().decode(Measure.self, from: Data($0.utf8))
            }
            #expect(measures.count == 18, "\(output)")
            for measure in measures {
                #expect(
                    measure.scroll_width <= measure.client_width,
                    "\(measure.name) at \(measure.width) px scrolls sideways: \(measure.overflow)")
                let png = try Data(contentsOf: URL(fileURLWithPath: measure.screenshot))
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 5_000, "\(measure.screenshot)")
            }
            let phoneList = try #require(measures.first { $0.name == "list" && $0.width == 375 })
            #expect(phoneList.path_lines.map { (1...2).contains($0) } == true, "\(phoneList)")
            #expect(phoneList.filters_shown == false, "the filters are folded on a phone")
            let filtered = try #require(measures.first { $0.name == "filtered" && $0.width == 375 })
            #expect(filtered.filters_shown == true, "filters in force start unfolded")
            let desktop = try #require(measures.first { $0.name == "list" && $0.width == 1440 })
            #expect(desktop.filters_shown == true, "the filters are always shown on a wide screen")
            let list = try await DashboardClient(collector.baseURL).send("GET", "/")
            // A checkbox folds them, not <details>: a closed <details> hides its form from browsers without
            // ::details-content and from WebDriver at every width.
            #expect(list.text.contains(#"<input type="checkbox" id="filters-shown" class="filtertoggle">"#))
            #expect(!list.text.contains("<details"))
        }
    }

    @Test("every dashboard page is valid HTML (html5lib strict parse, no duplicate ids)", .timeLimit(.minutes(2)))
    func validHTML() async throws {
        guard let python = Self.html5libPython() else {
            Issue.record(
                """
                html5lib is missing: python3 -m venv .build/html-check-venv && \
                .build/html-check-venv/bin/pip install html5lib, then run this test again.
                """)
            return
        }
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        try await TestCollector.run { collector in
            try await DashboardTests.seedStaging(collector)
            try await SuggestionTests.seed(collector)
            let title = DashboardTests.group("$.results[*].title")
            let client = DashboardClient(collector.baseURL)
            var files: [String] = []
            let pages = [
                ("list", "/"), ("list-empty", "/?status=resolved"), ("list-error", "/?kind=nonsense"),
                ("group", "/groups/\(title)"), ("group-backend-report", "/groups/\(SuggestionTests.likes)"),
                ("login", "/login"), ("missing", "/groups/0123456789abcdef"),
                ("list-environment", "/?environment=staging"), ("list-bad-environment", "/?environment=no+spaces"),
                ("group-environment", "/groups/\(title)?environment=staging"),
            ]
            for (name, path) in pages {
                let file = Self.artifacts.appendingPathComponent("\(name).html")
                try (try await client.send("GET", path)).body.write(to: file)
                files.append(file.path)
            }
            let script = Self.packageRoot.appendingPathComponent("scripts/check-html.py").path
            let output = try Browser.run(python, [script] + files)
            #expect(output.contains("\(files.count) document(s) valid"), "\(output)")
        }
    }
}
