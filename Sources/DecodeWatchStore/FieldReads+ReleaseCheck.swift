import DecodeWatchCore

extension FieldReads {
    /// The release check of docs/api.md#release-check: the version's and the baseline's counts read from storage,
    /// judged by ``ReleaseJudge``. `GET /v1/check` and `decodewatch check` both answer with it.
    /// - Parameter query: the version, window and thresholds.
    /// - Returns: the verdict; an app or version storage does not know is `insufficient` with 0 decodes.
    /// - Throws: ``StoreError`` with code `unavailable` when storage cannot answer.
    public func check(_ query: ReleaseCheckQuery) async throws -> ReleaseVerdict {
        let current = try await versionCounts(
            app: query.app, version: query.version, environment: query.environment, since: query.since,
            until: query.until)
        var baseline: VersionCounts?
        if let version = query.baseline {
            baseline = try await versionCounts(
                app: query.app, version: version, environment: query.environment, since: query.since,
                until: query.until)
        }
        var verdict = ReleaseJudge.judge(query, current: current, baseline: baseline)
        if verdict.decodes == 0 || verdict.baselineDecodes == 0 {
            verdict.warnings = try await unknownValueWarnings([
                .app: query.app, .environment: query.environment, .version: query.version, .version: query.baseline,
            ])
        }
        return verdict
    }
}
