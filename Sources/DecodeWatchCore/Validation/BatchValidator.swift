@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Decodes and validates an ingest body (docs/wire-format.md#batch) and normalizes its reports
/// (docs/wire-format.md#normalization).
///
/// Batch-level problems throw a ``BatchError``; report-level problems become ``Rejection``s so the
/// good reports of the batch are still accepted.
public struct BatchValidator: Sendable {
    /// The limits applied.
    public let limits: IngestLimits
    /// The endpoint normalizer, with the operator's route templates.
    public let normalizer: EndpointNormalizer

    /// Reports that occurred more than this after the batch was received are clamped to the
    /// receive time: a device clock set in the future must not push `last_seen` into the future.
    static let futureTolerance: TimeInterval = 3600

    /// Reports and `sent_at` dated before this (1970-01-01, where hour and minute indexes start, ``Hour``) are
    /// counted at the receive time, as those too far ahead are: only a reset or broken clock shows such a date.
    static let earliest = Date(timeIntervalSince1970: 0)

    /// Creates a validator.
    public init(limits: IngestLimits = IngestLimits(), normalizer: EndpointNormalizer = EndpointNormalizer()) {
        self.limits = limits
        self.normalizer = normalizer
    }

    /// Decodes, validates and normalizes one inflated ingest body.
    /// - Parameters:
    ///   - body: the JSON text of the batch.
    ///   - receivedAt: when the collector received it.
    /// - Returns: the accepted reports with their group keys, and the rejected ones with reasons.
    /// - Throws: ``BatchError`` when the batch as a whole cannot be accepted.
    public func validate(_ body: Data, receivedAt: Date) throws(BatchError) -> ValidatedBatch {
        var incoming = try decode(body)
        try checkIdentity(incoming)
        var warnings = incoming.warnings
        truncateHeader(&incoming, warnings: &warnings)
        var sentAt = incoming.sentAt
        if let sent = sentAt, sent > receivedAt.addingTimeInterval(Self.futureTolerance) {
            sentAt = receivedAt
            warnings.append("sent_at: more than an hour ahead of the collector's clock; the receive time is used")
        } else if let sent = sentAt, sent < Self.earliest {
            sentAt = receivedAt
            warnings.append("sent_at: before 1970-01-01, a clock that was reset; the receive time is used")
        }
        var decodes: [EndpointCount] = []
        for (index, slot) in incoming.decodes.enumerated() {
            switch slot.flatMap({ check($0, index: index) }) {
            case .success(let entry): decodes.append(entry)
            case .failure(let problem): warnings.append(problem.text + "; dropped")
            }
        }
        var accepted: [AcceptedReport] = []
        accepted.reserveCapacity(incoming.reports.count)
        var rejected: [Rejection] = []
        // A batch repeats a few endpoints, paths and kinds many times: each distinct one is normalized once.
        var groups = BatchGroups(shapeCount: incoming.shapeCount)
        let shapes = incoming.shapes
        // Each group's sample is its last report of the latest time: the one whose snippet is kept, by report and
        // accepted index.
        var samples: [(at: Date, report: Int, accepted: Int)] = []
        // Reports are moved out of the batch one by one, first to last, rather than copied: a copy retains
        // each of a report's strings, and the batch's own copies would all be released afterwards. Matching on
        // `consume slot` moves the report out of its slot too, where binding it copied it.
        var slots = incoming.reports
        incoming.reports = []
        slots.reverse()
        var index = 0
        while let slot = slots.popLast() {
            switch consume slot {
            case .success(let report):
                let shape = index < shapes.count ? shapes[index] : -1
                switch check(
                    report, index: index, shape: shape, app: incoming.app.id, receivedAt: receivedAt, groups: &groups)
                {
                case .success(let report):
                    if report.group == samples.count {
                        samples.append((report.report.occurredAt, index, accepted.count))
                    } else if report.report.occurredAt >= samples[report.group].at {
                        samples[report.group] = (report.report.occurredAt, index, accepted.count)
                    }
                    accepted.append(report)
                case .failure(let problem): rejected.append(Rejection(index: index, error: problem.text))
                }
            case .failure(let problem):
                rejected.append(Rejection(index: index, error: problem.text))
            }
            index += 1
        }
        Self.keepSnippets(of: samples, in: &accepted, from: incoming, body: body)
        let environment = Self.environment(incoming.environment, warnings: &warnings)
        return ValidatedBatch(
            batchID: incoming.batchID, sentAt: sentAt, receivedAt: receivedAt, app: incoming.app,
            sdk: incoming.sdk, installID: incoming.installID,
            environment: environment, decodes: decodes, groupKeys: groups.keys,
            accepted: accepted, samples: samples.map(\.accepted), rejected: rejected, warnings: Self.capped(warnings))
    }

    /// Makes the snippets of the groups' samples (by report and accepted index) from the body: the reader leaves
    /// them as places in the text, since a batch keeps one snippet per group and most reports' are dropped.
    private static func keepSnippets(
        of samples: [(at: Date, report: Int, accepted: Int)], in accepted: inout [AcceptedReport],
        from batch: IncomingBatch, body: Data
    ) {
        body.withUnsafeBytes { text in
            for sample in samples where sample.report < batch.snippets.count {
                accepted[sample.accepted].report.snippet = batch.snippets[sample.report]?.string(in: text)
            }
        }
    }

    private func decode(_ body: Data) throws(BatchError) -> IncomingBatch {
        // `withUnsafeBytes` only rethrows untyped errors, so the typed one crosses it inside a Result.
        let outcome = body.withUnsafeBytes { raw in
            Result { () throws(BatchError) in try BatchDecoder.decode(raw, maxReports: limits.maxReports) }
        }
        return try outcome.get()
    }

    /// The batch's identity: what refuses a whole batch (docs/wire-format.md#batch) when it is unusable.
    private func checkIdentity(_ batch: IncomingBatch) throws(BatchError) {
        let id = batch.batchID
        guard !id.isEmpty, id.codePointCount <= IngestLimits.Field.batchID else {
            throw BatchError(
                .invalidBatch, "batch_id: must be 1–\(IngestLimits.Field.batchID) characters (a UUID is best)")
        }
        guard !batch.app.id.isEmpty, batch.app.id.codePointCount <= IngestLimits.Field.appID else {
            throw BatchError(
                .invalidBatch,
                "app.id: must be 1–\(IngestLimits.Field.appID) characters, got \(batch.app.id.codePointCount)")
        }
    }

    /// Cuts over-long optional header strings to their limits; each cut is a warning, never a refusal.
    private func truncateHeader(_ batch: inout IncomingBatch, warnings: inout [String]) {
        func cut(_ value: inout String?, _ field: String, _ limit: Int) {
            guard let text = value, Self.isLonger(text, than: limit) else { return }
            value = text.prefix(codePoints: limit)
            warnings.append("\(field): \(text.codePointCount) characters, cut to \(limit)")
        }
        let short = IngestLimits.Field.shortString
        cut(&batch.app.version, "app.version", short)
        cut(&batch.app.build, "app.build", short)
        cut(&batch.app.platform, "app.platform", short)
        cut(&batch.app.os, "app.os", short)
        if var sdk = batch.sdk {
            cut(&sdk.name, "sdk.name", short)
            cut(&sdk.version, "sdk.version", short)
            batch.sdk = sdk
        }
        cut(&batch.installID, "install_id", IngestLimits.Field.installID)
    }

    /// The environment a batch counts in: a name that breaks the rule is dropped with a warning, and the batch
    /// counts as `production`, like one without a name (docs/wire-format.md#environments).
    private static func environment(_ name: String?, warnings: inout [String]) -> String {
        guard let name else { return EnvironmentName.production }
        guard EnvironmentName.isValid(name) else {
            warnings.append(
                "environment: '\(name.prefix(80))' is not \(EnvironmentName.rule); counted as production")
            return EnvironmentName.production
        }
        return name
    }

    private func check(_ entry: DecodeCount, index: Int) -> Result<EndpointCount, FieldProblem> {
        guard entry.endpoint.utf8.count <= IngestLimits.Field.endpoint,
            let endpoint = normalizer.normalize(entry.endpoint)
        else {
            return .failure(
                FieldProblem(
                    "decodes[\(index)].endpoint: expected \"METHOD /path\", got '\(entry.endpoint.prefix(80))'"))
        }
        guard IngestLimits.Field.decodeCount.contains(entry.count) else {
            return .failure(
                FieldProblem(
                    "decodes[\(index)].count: must be a whole number from 0 to \(IngestLimits.Field.decodeCount.upperBound), got \(entry.count)"
                ))
        }
        return .success(EndpointCount(endpoint: endpoint, count: entry.count))
    }

    /// Whether a text has more characters than a limit. Characters are Unicode code points, as JSON Schema's
    /// `maxLength` counts them, so a limit also bounds the bytes (4 at most each): a grapheme cluster can be any
    /// length. The byte count, never smaller, answers first for the texts that are short anyway.
    static func isLonger(_ text: String, than limit: Int) -> Bool {
        text.utf8.count > limit && text.codePointCount > limit
    }

    /// At most ``maxWarnings`` warnings, the rest counted in a last one, so an answer stays small.
    static func capped(_ warnings: [String]) -> [String] {
        guard warnings.count > maxWarnings else { return warnings }
        return Array(warnings.prefix(maxWarnings)) + ["… and \(warnings.count - maxWarnings) more warnings"]
    }

    /// The most warnings listed in one answer.
    static let maxWarnings = 20

    /// Checks one report and finds its group.
    ///
    /// The endpoint and the path are checked in the order of the fields of docs/wire-format.md#reports, between the
    /// other checks, so that a report with several problems names the first. A report of a shape whose group is known
    /// has the endpoint and path of an accepted report: only its other fields are checked.
    /// - Parameters:
    ///   - shape: the report's shape number (``RecentShapes``), or `-1`.
    ///   - groups: the batch's groups and normalized endpoints so far, filled as it goes.
    private func check(
        _ report: consuming Report, index: Int, shape: Int, app: String, receivedAt: Date, groups: inout BatchGroups
    ) -> Result<AcceptedReport, FieldProblem> {
        // Built only for a problem: most reports have none.
        var field: String { "reports[\(index)]" }
        let known = groups.group(ofShape: shape)
        var endpoint = 0
        if known == nil {
            guard report.endpoint.utf8.count <= IngestLimits.Field.endpoint else {
                return .failure(FieldProblem("\(field).endpoint: longer than \(IngestLimits.Field.endpoint) bytes"))
            }
            guard let form = groups.endpoint(report.endpoint, normalizer: normalizer) else {
                return .failure(
                    FieldProblem("\(field).endpoint: expected \"METHOD /path\", got '\(report.endpoint.prefix(80))'"))
            }
            endpoint = form
        }
        if let type = report.type, Self.isLonger(type, than: IngestLimits.Field.typeName) {
            return .failure(FieldProblem("\(field).type: longer than \(IngestLimits.Field.typeName) characters"))
        }
        if let expected = report.expected, Self.isLonger(expected, than: IngestLimits.Field.typeName) {
            return .failure(FieldProblem("\(field).expected: longer than \(IngestLimits.Field.typeName) characters"))
        }
        if known == nil, report.path.count > IngestLimits.Field.pathElements {
            return .failure(
                FieldProblem(
                    "\(field).path: \(report.path.count) elements, at most \(IngestLimits.Field.pathElements) allowed"))
        }
        guard IngestLimits.Field.reportCount.contains(report.count) else {
            return .failure(FieldProblem("\(field).count: must be from 1 to 1000000, got \(report.count)"))
        }
        if report.occurredAt > receivedAt.addingTimeInterval(Self.futureTolerance) || report.occurredAt < Self.earliest
        {
            report.occurredAt = receivedAt
        }
        let group =
            known ?? groups.group(app: app, endpoint: endpoint, path: report.path, kind: report.kind, shape: shape)
        return .success(AcceptedReport(report: report, group: group, key: groups.keys[group]))
    }

}
