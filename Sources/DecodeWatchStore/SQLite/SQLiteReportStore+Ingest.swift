import DecodeWatchCore
import GRDB

extension SQLiteReportStore {
    /// Writes one folded batch; runs inside the caller's write transaction.
    static func ingest(_ batch: BatchAggregate, into db: Database) throws -> IngestOutcome {
        try db.cachedStatement(sql: SQL.insertBatch).execute(arguments: [
            batch.appID, batch.batchID, batch.receivedAt.milliseconds, batch.acceptedReports,
        ])
        guard db.changesCount > 0 else { return .duplicate }

        let received = batch.receivedAt.milliseconds
        let upsertGroup = try db.cachedStatement(sql: SQL.upsertGroup)
        let upsertHour = try db.cachedStatement(sql: SQL.upsertHour)
        let upsertVersion = try db.cachedStatement(sql: SQL.upsertVersion)
        let upsertExpected = try db.cachedStatement(sql: SQL.upsertExpected)
        let insertInstall = try db.cachedStatement(sql: SQL.insertInstall)
        for group in batch.groups {
            let id = group.key.id
            try upsertGroup.execute(arguments: [
                id, batch.appID, group.key.endpoint, group.key.path, group.key.kind.rawValue,
                group.firstSeen.milliseconds, group.lastSeen.milliseconds, group.sample.snippet, group.sample.message,
                group.sample.type, received, batch.version,
            ])
            // The upsert only touches a row of the same key; a different key under the same id would be
            // a SHA-256 collision, refused rather than counted into another group (or another app).
            guard db.changesCount > 0 else { throw StoreError.groupConflict(id) }
            for (hour, count) in group.hours {
                try upsertHour.execute(arguments: [id, hour, StoredCount.clamp(count)])
                try upsertVersion.execute(arguments: [id, hour, batch.version, StoredCount.clamp(count)])
                if let install = batch.installHash {
                    try insertInstall.execute(arguments: [id, hour, install])
                }
            }
            for (key, count) in group.expected {
                try upsertExpected.execute(arguments: [id, key.hour, key.value, StoredCount.clamp(count)])
            }
        }
        let upsertDecodes = try db.cachedStatement(sql: SQL.upsertDecodes)
        for entry in batch.decodes where entry.count > 0 {
            try upsertDecodes.execute(arguments: [
                batch.appID, entry.endpoint, batch.decodesHour, StoredCount.clamp(entry.count),
            ])
        }
        return .stored
    }

    private enum SQL {
        static let insertBatch = """
            INSERT INTO batches (app_id, batch_id, received_at, reports) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """
        // A report that occurred after the group was resolved regresses it, with the version that brought it back.
        static let upsertGroup = """
            INSERT INTO groups (group_id, app_id, endpoint, path, kind, first_seen, last_seen,
                                sample_snippet, sample_message, sample_type)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            ON CONFLICT (group_id) DO UPDATE SET
                first_seen = MIN(groups.first_seen, excluded.first_seen),
                last_seen = MAX(groups.last_seen, excluded.last_seen),
                sample_snippet = CASE WHEN excluded.last_seen >= groups.last_seen
                    THEN excluded.sample_snippet ELSE groups.sample_snippet END,
                sample_message = CASE WHEN excluded.last_seen >= groups.last_seen
                    THEN excluded.sample_message ELSE groups.sample_message END,
                sample_type = CASE WHEN excluded.last_seen >= groups.last_seen
                    THEN excluded.sample_type ELSE groups.sample_type END,
                regressed_at = CASE WHEN groups.state = 'resolved' AND excluded.last_seen > groups.resolved_at
                    THEN ?11 ELSE groups.regressed_at END,
                regressed_version = CASE WHEN groups.state = 'resolved' AND excluded.last_seen > groups.resolved_at
                    THEN ?12 ELSE groups.regressed_version END,
                state = CASE WHEN groups.state = 'resolved' AND excluded.last_seen > groups.resolved_at
                    THEN 'regressed' ELSE groups.state END
            WHERE groups.app_id = excluded.app_id AND groups.endpoint = excluded.endpoint
                AND groups.path = excluded.path AND groups.kind = excluded.kind
            """
        static let upsertHour = """
            INSERT INTO group_hours (group_id, hour, count) VALUES (?, ?, ?)
            ON CONFLICT DO UPDATE SET count = MIN(group_hours.count + excluded.count, \(StoredCount.max))
            """
        static let upsertVersion = """
            INSERT INTO group_hour_versions (group_id, hour, version, count) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET count = MIN(group_hour_versions.count + excluded.count, \(StoredCount.max))
            """
        static let upsertExpected = """
            INSERT INTO group_hour_expected (group_id, hour, expected, count) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET count = MIN(group_hour_expected.count + excluded.count, \(StoredCount.max))
            """
        static let insertInstall = """
            INSERT INTO group_hour_installs (group_id, hour, install_hash) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """
        static let upsertDecodes = """
            INSERT INTO endpoint_hours (app_id, endpoint, hour, count) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET count = MIN(endpoint_hours.count + excluded.count, \(StoredCount.max))
            """
    }
}
