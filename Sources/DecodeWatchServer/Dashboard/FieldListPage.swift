import DecodeWatchCore
import DecodeWatchStore
import Foundation

/// `GET /`: the breaking fields of a window, one row per group, with tabs by status, filters, sort and pages.
///
/// Four store calls whatever the number of groups: the environments to offer, the decisions in force, one read
/// transaction that lists the window's groups lightly and summarizes only the shown page, and the hourly counts
/// of that page (one query, like Bugsink's sparklines).
struct FieldListPage: Sendable {
    /// The status tabs; `muted` holds muted groups, which the first three leave out.
    static let tabs = ["all"] + GroupStatus.allCases.map(\.rawValue)
    /// Sort orders.
    static let sorts = [("count", "Count"), ("rate", "Rate"), ("last_seen", "Last seen")]
    /// Rows per page.
    static let pageSize = 50

    /// What the query string asked for.
    struct Request: Sendable {
        var tab = "all"
        var app: String?
        var endpoint: String?
        var kind: String?
        var version: String?
        var environment: String?
        /// Text the groups' path, endpoint, types or message must contain (``FieldsQuery/search``).
        var search: String?
        var window = DashboardWindow.day
        var sort = "count"
        var page = 1

        init(_ values: FormValues) {
            tab = values.nonEmpty("status").flatMap { FieldListPage.tabs.contains($0) ? $0 : nil } ?? "all"
            app = values.nonEmpty("app")
            endpoint = values.nonEmpty("endpoint")
            kind = values.nonEmpty("kind")
            version = values.nonEmpty("version")
            environment = values.nonEmpty("environment")
            search = values.nonEmpty("q")
            window = values.nonEmpty("window").flatMap(DashboardWindow.init(rawValue:)) ?? .day
            sort =
                values.nonEmpty("sort").flatMap { s in FieldListPage.sorts.contains { $0.0 == s } ? s : nil } ?? "count"
            page = values.nonEmpty("page").flatMap(Int.init).map { max(1, $0) } ?? 1
        }

        /// The query string of this view with some parameters changed; empty values are left out.
        func link(tab: String? = nil, page: Int? = nil) -> String {
            let pairs: [(String, String?)] = [
                ("status", (tab ?? self.tab) == "all" ? nil : (tab ?? self.tab)), ("app", app),
                ("endpoint", endpoint), ("kind", kind), ("version", version), ("environment", environment),
                ("q", search), ("window", window == .day ? nil : window.rawValue),
                ("sort", sort == "count" ? nil : sort),
                ("page", (page ?? 1) == 1 ? nil : String(page ?? 1)),
            ]
            return "/" + Self.query(pairs)
        }

        /// A group's page, in this view's window and environment.
        func groupLink(_ group: String) -> String {
            "/groups/\(group)"
                + Self.query([
                    ("window", window == .day ? nil : window.rawValue), ("environment", environment),
                ])
        }

        /// `?name=value&…` of the pairs with a value, or empty.
        private static func query(_ pairs: [(String, String?)]) -> String {
            let query = pairs.compactMap { name, value in value.map { "\(name)=\(DashboardPage.queryEscape($0))" } }
            return query.isEmpty ? "" : "?" + query.joined(separator: "&")
        }
    }

    let store: any FieldReads & GroupActionStore & ContractStore
    let normalizer: EndpointNormalizer

    /// Builds the page's view; a bad filter becomes a message on the page.
    func view(_ request: Request, now: Date) async throws -> FieldListView {
        var view = FieldListView(request: request)
        var query: FieldsQuery
        do throws(QueryError) {
            query = try FieldsQuery.parse(
                app: request.app, endpoint: request.endpoint, kind: request.kind, environment: request.environment,
                since: request.window.rawValue, until: nil, limit: nil, search: request.search, searchField: "Search",
                now: now, normalizer: normalizer)
        } catch {
            view.error = error.message
            return view
        }
        view.offer(environments: try await store.environments(), chosen: query.environment)
        query.limit = FieldIndexEntry.listLimit
        let selection = Selection(request: request, decisions: try await store.allActionStates(now: now))
        let (index, page) = try await store.fieldsPage(query, version: request.version) { index in
            selection.pick(index).shown.map(\.group)
        }
        let picked = selection.pick(index)
        view.truncated = index.count == FieldIndexEntry.listLimit
        view.tabs = Self.tabs.map { name in
            FieldListView.Tab(
                name: name, label: name.prefix(1).uppercased() + name.dropFirst(), count: picked.counts[name] ?? 0,
                href: request.link(tab: name), current: name == request.tab)
        }
        let hourly = try await store.hourlyCounts(
            groups: picked.shown.map(\.group), environment: query.environment, since: query.since, until: query.until)
        // Contracts are read once per page and judged in memory, for the shown rows only.
        let judged = try await store.contractSet(app: request.app).annotating(page)
        view.rows = judged.fields.map { field in
            var field = field
            let decision = selection.decisions[field.group]
            field.status = decision?.status(field.status) ?? field.status
            return FieldListView.Row(
                field: field, muted: decision?.isMuted == true,
                bars: DashboardPage.bars(request.window.buckets(hourly[field.group] ?? [:], until: query.until)),
                href: request.groupLink(field.group), now: now)
        }
        view.pageLabel =
            "Page \(picked.page) of \(picked.pages) · \(DashboardFormat.count(picked.total)) \(Plural.noun("field", picked.total))"
        view.previous = picked.page > 1 ? request.link(page: picked.page - 1) : nil
        view.next = picked.page < picked.pages ? request.link(page: picked.page + 1) : nil
        view.since = DashboardFormat.time(query.since, now: now)
        view.isEmpty = view.rows.isEmpty
        view.hasRows = !view.rows.isEmpty
        return view
    }

    /// How a request turns the window's groups into tab counts and a page of rows.
    struct Selection: Sendable {
        let request: Request
        let decisions: [String: GroupActionState]

        /// What the tabs count and which entries the page shows.
        struct Picked {
            var counts: [String: Int]
            var shown: [FieldIndexEntry]
            var page: Int
            var pages: Int
            var total: Int
        }

        /// The tab a group is listed under: muted groups leave the open tabs until the mute ends.
        func tab(of entry: FieldIndexEntry) -> String {
            (decisions[entry.group]?.listedStatus(entry.status) ?? entry.status).rawValue
        }

        func pick(_ index: [FieldIndexEntry]) -> Picked {
            var counts: [String: Int] = ["all": index.count]
            for entry in index { counts[tab(of: entry), default: 0] += 1 }
            var entries = request.tab == "all" ? index : index.filter { tab(of: $0) == request.tab }
            switch request.sort {
            case "rate": entries.sort { ($0.rate ?? -1, $0.count, $1.group) > ($1.rate ?? -1, $1.count, $0.group) }
            case "last_seen": entries.sort { ($0.lastSeen, $0.count, $1.group) > ($1.lastSeen, $1.count, $0.group) }
            default: break  // the summary's order: count descending, then group
            }
            let pages = max(1, (entries.count + pageSize - 1) / pageSize)
            let page = min(request.page, pages)
            let shown = Array(entries.dropFirst((page - 1) * pageSize).prefix(pageSize))
            return Picked(counts: counts, shown: shown, page: page, pages: pages, total: entries.count)
        }
    }
}

/// What the list template renders.
struct FieldListView: Sendable {
    struct Tab: Sendable {
        let name: String
        let label: String
        let count: Int
        let href: String
        let current: Bool
    }

    var tabs: [Tab] = []
    var rows: [Row] = []
    var error: String?
    var truncated = false
    var pageLabel = ""
    var previous: String?
    var next: String?
    var since: DashboardFormat.Time?
    let currentTab: String
    let app: String
    let endpoint: String
    let version: String
    /// The search box's text.
    let search: String
    let kinds: [DashboardPage.Option]
    /// "All environments" and every environment the store knows.
    var environments: [DashboardPage.Option] = []
    let windows: [DashboardPage.Option]
    let sorts: [DashboardPage.Option]
    let sparkLabel: String
    /// Whether any filter or sort differs from the defaults: the filters then start unfolded on narrow screens.
    let filtersActive: Bool
    /// The filters in force, in one line for the folded filters' label.
    let filterSummary: String
    var page = DashboardPage.Chrome()

    init(request: FieldListPage.Request) {
        currentTab = request.tab
        isAll = request.tab == "all"
        app = request.app ?? ""
        endpoint = request.endpoint ?? ""
        version = request.version ?? ""
        search = request.search ?? ""
        kinds =
            [DashboardPage.Option(value: "", label: "Any kind", selected: request.kind == nil)]
            + ReportKind.allCases.map {
                DashboardPage.Option(value: $0.rawValue, label: $0.rawValue, selected: request.kind == $0.rawValue)
            }
        windows = DashboardWindow.allCases.map {
            DashboardPage.Option(value: $0.rawValue, label: $0.label, selected: $0 == request.window)
        }
        sorts = FieldListPage.sorts.map {
            DashboardPage.Option(value: $0.0, label: $0.1, selected: $0.0 == request.sort)
        }
        sparkLabel = request.window == .day ? "Last 24 h, hourly" : "Last \(request.window.rawValue), daily"
        let active = [
            request.search.map { "\u{201C}\($0)\u{201D}" }, request.app, request.endpoint, request.kind,
            request.version.map { "version \($0)" }, request.environment,
            request.window == .day ? nil : request.window.label,
            request.sort == "count" ? nil : FieldListPage.sorts.first { $0.0 == request.sort }.map { "by \($0.1)" },
        ].compactMap { $0 }
        filtersActive = !active.isEmpty
        filterSummary = active.joined(separator: " · ")
        offer(environments: [], chosen: nil)
    }

    /// Offers the known environments to filter by, and the chosen one even before it has reported.
    mutating func offer(environments known: [String], chosen: String?) {
        let names = chosen.map { known.contains($0) ? known : (known + [$0]).sorted() } ?? known
        environments =
            [DashboardPage.Option(value: "", label: "All environments", selected: chosen == nil)]
            + names.map { DashboardPage.Option(value: $0, label: $0, selected: $0 == chosen) }
    }

    /// Whether there is nothing to list (stored: templates read stored properties only).
    var isEmpty = false
    /// Whether there are rows.
    var hasRows = false
    /// Whether the "all" tab is shown.
    let isAll: Bool
    /// The page title.
    let title = "Breaking fields"
}
