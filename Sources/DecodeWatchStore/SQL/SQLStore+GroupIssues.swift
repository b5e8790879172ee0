import DecodeWatchCore
import Foundation

extension SQLStore {
    public func issueURL(group: String) async throws -> String? {
        return try await perform(access: .read) { try $0.run(issue(of: group)).first?.text("url") }
    }

    public func recordIssue(group: String, url: String, at date: Date, by actor: String) async throws -> String {
        let known = dialect.statement("SELECT COUNT(*) AS known FROM groups WHERE group_id = \(bind: .text(group))")
        // `DO NOTHING … RETURNING` returns no row when an issue was recorded first: that one stays, and is read.
        let insert = dialect.statement(
            """
            INSERT INTO group_issues (group_id, url, opened_at) VALUES (\(bind: [.text(group), .text(url), SQLValue(date)]))
            ON CONFLICT (group_id) DO NOTHING RETURNING url
            """)
        let existing = issue(of: group)
        let event = dialect.statement(
            """
            INSERT INTO group_status_events (group_id, at, action, detail, actor)
            VALUES (\(bind: [.text(group), SQLValue(date), .text(GroupStatusEvent.issueAction), .text(url), .text(actor)]))
            ON CONFLICT (group_id, at, action) DO NOTHING
            """)
        return try await perform(access: .write) { tx in
            guard let row = try tx.run(known).first, try row.integer("known") > 0 else {
                throw StoreError(.notFound, "No group has the id '\(group)'; list groups with `decodewatch fields`.")
            }
            guard try tx.run(insert).isEmpty else {
                _ = try tx.run(event)
                return url
            }
            return try tx.run(existing).first?.text("url") ?? url
        }
    }

    /// Reads the issue recorded for a group.
    private func issue(of group: String) -> SQLStatement {
        dialect.statement("SELECT url FROM group_issues WHERE group_id = \(bind: .text(group))")
    }
}
