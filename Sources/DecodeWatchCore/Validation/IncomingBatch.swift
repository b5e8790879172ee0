import Foundation

/// A batch as received, decoded leniently: every report is decoded on its own, so that one bad
/// report is rejected with a reason while the good ones around it are kept (as `[Safe<T>]` would).
struct IncomingBatch: Decodable {
    static let maxReportsKey = CodingUserInfoKey(rawValue: "decodewatch.maxReports")!

    var batchID: String
    var sentAt: Date?
    var app: AppInfo
    var sdk: SDKInfo?
    var installID: String?
    var decodes: [DecodeCount]
    var reports: [Result<Report, any Error>]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ReportBatch.CodingKeys.self)
        batchID = try container.decode(String.self, forKey: .batchID)
        if let sent = try container.decodeIfPresent(String.self, forKey: .sentAt) {
            guard let date = RFC3339.date(from: sent) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sentAt, in: container, debugDescription: "'\(sent)' is not an RFC 3339 time")
            }
            sentAt = date
        }
        app = try container.decode(AppInfo.self, forKey: .app)
        sdk = try container.decodeIfPresent(SDKInfo.self, forKey: .sdk)
        installID = try container.decodeIfPresent(String.self, forKey: .installID)
        decodes = try container.decodeIfPresent([DecodeCount].self, forKey: .decodes) ?? []
        var list = try container.nestedUnkeyedContainer(forKey: .reports)
        let limit = decoder.userInfo[Self.maxReportsKey] as? Int ?? Int.max
        if let count = list.count, count > limit {
            throw BatchError(
                .tooManyReports, "The batch has \(count) reports; send at most \(limit) per batch and split the rest.")
        }
        var reports: [Result<Report, any Error>] = []
        reports.reserveCapacity(list.count ?? 0)
        while !list.isAtEnd {
            reports.append(try list.decode(ReportSlot.self).result)
        }
        self.reports = reports
    }
}

/// Decodes one report and keeps the error instead of throwing it.
private struct ReportSlot: Decodable {
    let result: Result<Report, any Error>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Report(from: decoder))
        } catch {
            result = .failure(error)
        }
    }
}
