@_spi(WireInternals) import DecodeWatchWire
import Foundation

@testable import DecodeWatchCore

/// The batch reader the collector used before ``BatchDecoder``: ``StrictJSON`` first, then Foundation's
/// `JSONDecoder` with one `Decodable` per report. Kept as the independent reference that the differential tests
/// hold the one-pass reader to.
enum ReferenceBatchDecoder {
    static func decode(_ body: Data, maxReports: Int) throws(BatchError) -> IncomingBatch {
        do {
            try StrictJSON.validate(body)
        } catch {
            throw BatchError(.invalidJSON, "The body is not valid JSON \(error).")
        }
        let decoder = JSONDecoder()
        decoder.userInfo[ReferenceBatch.maxReportsKey] = maxReports
        let batch: ReferenceBatch
        do {
            batch = try decoder.decode(ReferenceBatch.self, from: body)
        } catch let error as BatchError {
            throw error
        } catch let error as DecodingError {
            if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty {
                throw BatchError(.invalidJSON, "The body must be a JSON object (a batch), not another JSON value.")
            }
            throw BatchError(.invalidBatch, error.fieldMessage)
        } catch {
            throw BatchError(.invalidJSON, "The body could not be read as JSON: \(error).")
        }
        return IncomingBatch(
            batchID: batch.batchID, sentAt: batch.sentAt, app: batch.app, sdk: batch.sdk, installID: batch.installID,
            decodes: batch.decodes.map { $0.mapError(problem) }, reports: batch.reports.map { $0.mapError(problem) },
            warnings: batch.warnings)
    }

    private static func problem(_ error: any Error) -> FieldProblem {
        if let error = error as? DecodingError { return FieldProblem(error.fieldMessage) }
        return FieldProblem("\(error)")
    }
}

private struct ReferenceBatch: Decodable {
    static let maxReportsKey = CodingUserInfoKey(rawValue: "decodewatch.maxReports")!

    var batchID: String
    var sentAt: Date?
    var app: AppInfo
    var sdk: SDKInfo?
    var installID: String?
    var decodes: [Result<DecodeCount, any Error>] = []
    var reports: [Result<Report, any Error>] = []
    /// What was dropped while decoding, as `field: reason` sentences.
    var warnings: [String] = []

    private enum AppKeys: String, CodingKey { case id, version, build, platform, os }
    private enum SDKKeys: String, CodingKey { case name, version }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ReportBatch.CodingKeys.self)
        batchID = try container.decode(String.self, forKey: .batchID)
        if batchID.utf8.contains(0) { throw BatchError(.invalidBatch, "batch_id: \(BatchDecoder.nulProblem)") }
        let appContainer = try container.nestedContainer(keyedBy: AppKeys.self, forKey: .app)
        app = AppInfo(id: try appContainer.decode(String.self, forKey: .id))
        if app.id.utf8.contains(0) { throw BatchError(.invalidBatch, "app.id: \(BatchDecoder.nulProblem)") }
        var list = try container.nestedUnkeyedContainer(forKey: .reports)
        let limit = decoder.userInfo[Self.maxReportsKey] as? Int ?? Int.max
        if let count = list.count, count > limit {
            throw BatchError(
                .tooManyReports, "The batch has \(count) reports; send at most \(limit) per batch and split the rest.")
        }

        if let sent = optional(String.self, container, .sentAt, "sent_at") {
            if let date = RFC3339.date(from: sent) {
                sentAt = date
            } else {
                warnings.append("sent_at: '\(sent.prefix(40))' is not an RFC 3339 time; dropped")
            }
        }
        app.version = optional(String.self, appContainer, .version, "app.version")
        app.build = optional(String.self, appContainer, .build, "app.build")
        app.platform = optional(String.self, appContainer, .platform, "app.platform")
        app.os = optional(String.self, appContainer, .os, "app.os")
        if container.contains(.sdk) {
            do {
                let sdkContainer = try container.nestedContainer(keyedBy: SDKKeys.self, forKey: .sdk)
                sdk = SDKInfo(
                    name: optional(String.self, sdkContainer, .name, "sdk.name"),
                    version: optional(String.self, sdkContainer, .version, "sdk.version"))
            } catch {
                if (try? container.decodeNil(forKey: .sdk)) != true {
                    warnings.append("sdk: expected an object; dropped")
                }
            }
        }
        installID = optional(String.self, container, .installID, "install_id")
        if container.contains(.decodes), (try? container.decodeNil(forKey: .decodes)) != true {
            if var entries = try? container.nestedUnkeyedContainer(forKey: .decodes) {
                while !entries.isAtEnd {
                    decodes.append(try entries.decode(Slot<ReferenceDecodeCount>.self).result.map(\.entry))
                }
            } else {
                warnings.append("decodes: expected an array of {endpoint, count}; dropped")
            }
        }

        reports.reserveCapacity(list.count ?? 0)
        while !list.isAtEnd {
            reports.append(try list.decode(Slot<ReferenceReport>.self).result.map(\.report))
        }
    }

    /// An optional header field: a value of the wrong type is dropped with a warning, not thrown.
    private mutating func optional<Value: Decodable, Key: CodingKey>(
        _ type: Value.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key, _ field: String
    ) -> Value? {
        do {
            let value = try container.decodeIfPresent(type, forKey: key)
            if let text = value as? String, text.utf8.contains(0) {
                warnings.append("\(field): \(BatchDecoder.nulProblem); dropped")
                return nil
            }
            return value
        } catch {
            warnings.append("\(field): expected \(type == String.self ? "a string" : "\(type)"); dropped")
            return nil
        }
    }
}

/// Decodes one element and keeps the error instead of throwing it.
private struct Slot<Value: Decodable>: Decodable {
    let result: Result<Value, any Error>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Value(from: decoder))
        } catch let error as DecodingError {
            result = .failure(error)
        } catch {
            // Foundation on Linux throws its own error for a number that does not fit (1.5 or 1e30 into
            // Int), without a coding path: give it the element's path so the message names the field.
            let detail = "\(error)".firstMatch(of: /parsed: "([^"]*)"/).map { "number \($0.1) does not fit" }
            result = .failure(
                DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: detail ?? "\(error)")))
        }
    }
}
