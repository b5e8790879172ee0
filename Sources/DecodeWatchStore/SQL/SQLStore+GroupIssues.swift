import DecodeWatchCore
import Foundation

extension SQLStore {
    public func issueURL(group: String) async throws -> String? {
        return try await perform(.fetch(issue(of: group)) { try $0.first?.text("url") }, access: .read)
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
        let step = SQLStep<String>.run(known) { rows in
            guard let row = rows.first, try row.integer("known") > 0 else {
                throw StoreError(.notFound, "No group has the id '\(group)'; list groups with `decodewatch fields`.")
            }
            return .run(insert) { inserted in
                guard inserted.isEmpty else { return .run(event) { _ in .done(url) } }
                return .fetch(existing) { try $0.first?.text("url") ?? url }
            }
        }
        return try await perform(step, access: .write)
    }

    /// Reads the issue recorded for a group.
    private func issue(of group: String) -> SQLStatement {
        dialect.statement("SELECT url FROM group_issues WHERE group_id = \(bind: .text(group))")
    }
}
