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
            try upsertGroup.execute(arguments: [
                group.id, batch.appID, group.key.endpoint, group.key.path, group.key.kind.rawValue,
                group.firstSeen.milliseconds, group.lastSeen.milliseconds, group.sample.snippet, group.sample.message,
                group.sample.type, received, batch.version,
            ])
            for (hour, count) in group.hours {
                try upsertHour.execute(arguments: [group.id, hour, count])
                try upsertVersion.execute(arguments: [group.id, hour, batch.version, count])
                if let install = batch.installHash {
                    try insertInstall.execute(arguments: [group.id, hour, install])
                }
            }
            for (key, count) in group.expected {
                try upsertExpected.execute(arguments: [group.id, key.hour, key.value, count])
            }
        }
        let upsertDecodes = try db.cachedStatement(sql: SQL.upsertDecodes)
        for entry in batch.decodes where entry.count > 0 {
            try upsertDecodes.execute(arguments: [batch.appID, entry.endpoint, batch.decodesHour, entry.count])
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
            """
        static let upsertHour = """
            INSERT INTO group_hours (group_id, hour, count) VALUES (?, ?, ?)
            ON CONFLICT DO UPDATE SET count = group_hours.count + excluded.count
            """
        static let upsertVersion = """
            INSERT INTO group_hour_versions (group_id, hour, version, count) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET count = group_hour_versions.count + excluded.count
            """
        static let upsertExpected = """
            INSERT INTO group_hour_expected (group_id, hour, expected, count) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET count = group_hour_expected.count + excluded.count
            """
        static let insertInstall = """
            INSERT INTO group_hour_installs (group_id, hour, install_hash) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """
        static let upsertDecodes = """
            INSERT INTO endpoint_hours (app_id, endpoint, hour, count) VALUES (?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET count = endpoint_hours.count + excluded.count
            """
    }
}
