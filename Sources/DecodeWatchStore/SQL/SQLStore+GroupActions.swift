import DecodeWatchCore
import Foundation

extension SQLStore {
    public func apply(_ action: GroupAction, to group: String, at date: Date, by actor: String) async throws {
        if action == .resolve || action == .resolveInNextVersion { try await resolve(group: group, at: date) }
        var facts = SQLBuilder(dialect)
        let id = facts.bind(.text(group))
        facts.append(
            """
            SELECT (SELECT COUNT(*) FROM groups WHERE group_id = \(id)) AS known,
                   (SELECT \(dialect.cappedSum("count")) FROM group_hours WHERE group_seq = \(Rollup.seq(ofGroup: id))) AS total
            """)
        var versions = SQLBuilder(dialect)
        let seq = Rollup.seq(ofGroup: versions.bind(.text(group)))
        versions.append("SELECT DISTINCT version FROM group_hour_versions WHERE group_seq = \(seq)")
        let reads = [facts.statement(), versions.statement()]
        try await perform(access: .write) { [dialect] tx in
            let results = try tx.run(reads)
            guard let row = results[0].first, try row.integer("known") > 0 else {
                throw StoreError(.notFound, "No group has the id '\(group)'; list groups with `decodewatch fields`.")
            }
            let total = try row.integer("total")
            let newest = try results[1].map { try $0.text("version") }.max { GroupActionState.isNewer($1, than: $0) }
            let (change, detail) = Self.change(
                action, group: group, at: date, total: total, newest: newest, dialect: dialect)
            let event = dialect.statement(
                """
                INSERT INTO group_status_events (group_id, at, action, detail, actor)
                VALUES (\(bind: [.text(group), SQLValue(date), .text(action.name), SQLValue(detail), .text(actor)]))
                ON CONFLICT (group_id, at, action) DO NOTHING
                """)
            _ = try tx.run([change, event])
        }
    }

    /// The `group_actions` upsert of one decision and the detail its history records.
    private static func change(
        _ action: GroupAction, group: String, at date: Date, total: Int64, newest: String?, dialect: SQLDialect
    ) -> (SQLStatement, String?) {
        let columns: [String]
        let values: [SQLValue]
        let detail: String?
        switch action {
        case .resolve:
            (columns, values, detail) = (["next_version_at", "next_version_through"], [.null, .null], nil)
        case .resolveInNextVersion:
            (columns, values) = (["next_version_at", "next_version_through"], [SQLValue(date), SQLValue(newest)])
            detail = newest.map { "through \($0)" } ?? "no version known"
        case .mute(let mute):
            var until: SQLValue = .null
            var untilTotal: SQLValue = .null
            switch mute {
            case .period(let seconds): until = SQLValue(date.addingTimeInterval(seconds))
            case .occurrences(let count):
                untilTotal = .integer(total.addingReportingOverflow(Int64(count)).partialValue)
            }
            (columns, values, detail) = (
                ["muted_at", "muted_until", "muted_until_total"], [SQLValue(date), until, untilTotal], mute.summary
            )
        case .unmute:
            (columns, values, detail) = (["muted_at", "muted_until", "muted_until_total"], [.null, .null, .null], nil)
        }
        let statement = dialect.statement(
            """
            INSERT INTO group_actions (group_id, \(columns.joined(separator: ", ")))
            VALUES (\(bind: [.text(group)] + values))
            ON CONFLICT (group_id) DO UPDATE SET \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """)
        return (statement, detail)
    }

    public func actionStates(groups: [String], now: Date) async throws -> [String: GroupActionState] {
        guard !groups.isEmpty else { return [:] }
        return try await actionStates(among: "a.group_id IN (\(bind: groups.map(SQLValue.text))) AND", now: now)
    }

    public func allActionStates(now: Date) async throws -> [String: GroupActionState] {
        try await actionStates(among: "", now: now)
    }

    /// The decisions in force among the groups a `WHERE` prefix selects (empty for all).
    private func actionStates(among filter: SQLFragment, now: Date) async throws -> [String: GroupActionState] {
        let states = dialect.statement(
            """
            SELECT a.group_id, g.group_seq, a.muted_at, a.muted_until, a.muted_until_total, a.next_version_at,
                   a.next_version_through,
                   (SELECT \(dialect.cappedSum("h.count")) FROM group_hours h WHERE h.group_seq = g.group_seq) AS total
            FROM group_actions a LEFT JOIN groups g ON g.group_id = a.group_id
            WHERE \(filter) (a.muted_at IS NOT NULL OR a.next_version_at IS NOT NULL)
            """)
        return try await perform(access: .read) { [dialect] tx in
            var result: [String: GroupActionState] = [:]
            // Groups resolved in their next version: `group_seq` and the hour of the decision, by id.
            var resolvedSince: [String: (seq: Int64, hour: Int64)] = [:]
            for row in try tx.run(states) {
                let id = try row.text("group_id")
                var state = GroupActionState()
                if try row.optionalInteger("muted_at") != nil {
                    state.mutedUntil = try row.optionalDate("muted_until")
                    state.mutedFailuresLeft = try row.optionalInteger("muted_until_total").map {
                        Int(max(0, $0 - (try row.integer("total"))))
                    }
                    state.isMuted = (state.mutedUntil.map { $0 > now } ?? true) && (state.mutedFailuresLeft ?? 1) > 0
                }
                if let at = try row.optionalDate("next_version_at") {
                    state.isResolvedInNextVersion = true
                    state.resolvedThroughVersion = try row.optionalText("next_version_through")
                    if let seq = try row.optionalInteger("group_seq") { resolvedSince[id] = (seq, Hour.index(of: at)) }
                }
                result[id] = state
            }
            guard !resolvedSince.isEmpty else { return result }
            // Versions reporting since each resolution; a version newer than the one resolved through regresses.
            let idOfSeq = Dictionary(uniqueKeysWithValues: resolvedSince.map { ($1.seq, $0) })
            var versions = SQLBuilder(dialect)
            let since = resolvedSince.sorted { $0.key < $1.key }.map { _, resolved in
                "(group_seq = \(versions.bind(.integer(resolved.seq))) AND hour >= \(versions.bind(.integer(resolved.hour))))"
            }
            versions.append(
                "SELECT DISTINCT group_seq, version FROM group_hour_versions WHERE \(since.joined(separator: " OR "))")
            for row in try tx.run(versions.statement()) {
                guard let id = idOfSeq[try row.integer("group_seq")] else { continue }
                let version = try row.text("version")
                guard var state = result[id] else { continue }
                if let through = state.resolvedThroughVersion {
                    if GroupActionState.isNewer(version, than: through) { state.newerVersionSeen = true }
                } else {
                    state.newerVersionSeen = true
                }
                result[id] = state
            }
            return result
        }
    }

    public func statusHistory(group: String) async throws -> [GroupStatusEvent] {
        let statement = dialect.statement(
            """
            SELECT at, action, detail, actor FROM group_status_events WHERE group_id = \(bind: .text(group))
            ORDER BY at, action
            """)
        return try await perform(access: .read) { tx in
            try tx.run(statement).map {
                GroupStatusEvent(
                    at: try $0.date("at"), action: try $0.text("action"), detail: try $0.optionalText("detail"),
                    actor: try $0.optionalText("actor"))
            }
        }
    }

    public func versionBreakdown(group: String, since: Date, until: Date) async throws -> [VersionFailures] {
        let hours = versionRange(
            of: group, "\(dialect.cappedSum("count")) AS total, MIN(hour) AS first_hour, MAX(hour) AS last_hour",
            in: .hour, from: Hour.index(of: since), to: Hour.ceilingIndex(of: until))
        // The minutes still kept make first and last seen exact; older hours only say which hour.
        let oldestKept = Minute.index(of: until.addingTimeInterval(-Minute.kept))
        let minutes = versionRange(
            of: group, "MIN(minute) AS first_minute, MAX(minute) AS last_minute", in: .minute,
            from: max(Minute.index(of: since), oldestKept), to: Minute.ceilingIndex(of: until))
        return try await perform(access: .read) { tx in
            let results = try tx.run([hours, minutes])
            var exact: [String: (first: Int64, last: Int64)] = [:]
            for row in results[1] {
                exact[try row.text("version")] = (try row.integer("first_minute"), try row.integer("last_minute"))
            }
            let versions = try results[0].map { row in
                let version = try row.text("version")
                let (firstHour, lastHour) = (try row.integer("first_hour"), try row.integer("last_hour"))
                let minutes = exact[version]
                // The first minute is the first sighting only when no older hour of the window holds one.
                let first = minutes.flatMap {
                    Minute.hour(of: $0.first) == firstHour ? Minute.start(of: $0.first) : nil
                }
                let last = minutes.flatMap { Minute.hour(of: $0.last) == lastHour ? Minute.start(of: $0.last) : nil }
                return VersionFailures(
                    version: version, count: try row.count("total"), firstSeen: first ?? Hour.start(of: firstHour),
                    lastSeen: last ?? Hour.start(of: lastHour), exactToTheMinute: first != nil && last != nil)
            }
            return versions.sorted { GroupActionState.isNewer($0.version, than: $1.version) }
        }
    }

    /// Reads a group's version cells of one resolution in the buckets `[from, to)`, per version.
    /// - Parameter columns: what to select besides the version.
    private func versionRange(of group: String, _ columns: String, in rollup: Rollup, from: Int64, to: Int64)
        -> SQLStatement
    {
        var sql = SQLBuilder(dialect)
        let (seq, bucket) = (Rollup.seq(ofGroup: sql.bind(.text(group))), rollup.column)
        return sql.statement(
            appending: """
                SELECT version, \(columns)
                FROM \(rollup.versions)
                WHERE group_seq = \(seq)
                  AND \(bucket) >= \(bind: .integer(from)) AND \(bucket) < \(bind: .integer(to))
                GROUP BY version
                """)
    }

    public func storedGroup(_ group: String) async throws -> StoredGroup? {
        try await storedGroups(where: "group_id = \(bind: .text(group))").first
    }

    public func groups(withIDPrefix prefix: String, limit: Int) async throws -> [StoredGroup] {
        // `substr` rather than LIKE, so that `%` and `_` in a prefix are plain characters on both databases.
        try await storedGroups(
            where: "substr(group_id, 1, \(prefix.utf8.count)) = \(bind: .text(prefix))", orderedLimit: max(0, limit))
    }

    /// The groups a `WHERE` condition selects, with key, lifecycle and sample; by id, and at most
    /// `orderedLimit` when given.
    private func storedGroups(where condition: SQLFragment, orderedLimit: Int? = nil) async throws -> [StoredGroup] {
        let statement = dialect.statement(
            """
            SELECT group_id, app_id, endpoint, path, kind, first_seen, last_seen, sample_snippet, sample_message,
                   sample_type, sample_key_decoding, state, resolved_at, regressed_at, regressed_version
            FROM groups WHERE \(condition)\(orderedLimit.map { " ORDER BY group_id LIMIT \($0)" } ?? "")
            """)
        return try await perform(access: .read) { tx in
            try tx.run(statement).map { row in
                StoredGroup(
                    id: try row.text("group_id"), app: try row.text("app_id"), endpoint: try row.text("endpoint"),
                    path: try row.text("path"), kind: ReportKind(rawValue: try row.text("kind")) ?? .other,
                    lastSeen: try row.date("last_seen"), lifecycle: try GroupLifecycle(row),
                    sample: try Sample(row))
            }
        }
    }

    public func fieldsPage(
        _ query: FieldsQuery, version: String?, choose: @escaping @Sendable ([FieldIndexEntry]) -> [String]
    ) async throws -> (index: [FieldIndexEntry], page: FieldsSummary) {
        let reader = FieldsReader(query: query, dialect: dialect)
        let empty = FieldsSummary(since: query.since, until: query.until, fields: [])
        // The whole list, light and unordered, from every part of the groups at once; then the full rows and
        // facts of the chosen page only, in one transaction.
        let rows = try await readInSlices { reader.index(version: version, slice: $0) }
        var index: [FieldIndexEntry] = []
        index.reserveCapacity(rows.count)
        for row in rows {
            let count = try row.count("total")
            let decodes = try row.optionalInteger("decodes") ?? 0
            index.append(
                FieldIndexEntry(
                    group: try row.text("group_id"), count: count,
                    rate: decodes > 0 ? Double(count) / Double(decodes) : nil, lastSeen: try row.date("last_seen"),
                    status: try GroupLifecycle(row).status(since: query.since)))
        }
        let entries = Array(index.mostFailuresFirst(count: \.count, group: \.group).prefix(max(0, query.limit)))
        let chosen = choose(entries)
        guard !chosen.isEmpty else { return (entries, empty) }
        let page = try await perform(access: .read) { tx in
            let rows = try tx.run(reader.groups(among: chosen))
            let byID = Dictionary(uniqueKeysWithValues: try rows.map { (try $0.text("group_id"), $0) })
            let page = chosen.compactMap { byID[$0] }
            guard !page.isEmpty else { return empty }
            return try reader.summary(of: page, in: tx)
        }
        return (entries, page)
    }
}
