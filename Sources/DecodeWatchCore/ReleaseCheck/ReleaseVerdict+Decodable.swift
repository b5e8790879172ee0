@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Reading a verdict back from `GET /v1/check`, for the remote CLI. The document does not spell each field's
/// outcome; it follows from the judge's rules: a field without a rate, or without a baseline rate while a baseline
/// was given, cannot be judged; every other field the verdict names fails.
extension ReleaseVerdict: Decodable {
    enum CodingKeys: String, CodingKey {
        case verdict, app, version, baseline, since, until, decodes, fields, warnings
        case baselineDecodes = "baseline_decodes"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let baseline = try container.decodeIfPresent(String.self, forKey: .baseline)
        var fields = try container.decode([CheckedField].self, forKey: .fields)
        for index in fields.indices
        where fields[index].rate == nil || (baseline != nil && fields[index].baselineRate == nil) {
            fields[index].outcome = .insufficient
        }
        self.init(
            verdict: try container.decode(Outcome.self, forKey: .verdict),
            app: try container.decode(String.self, forKey: .app),
            version: try container.decode(String.self, forKey: .version), baseline: baseline,
            since: try container.decode(RFC3339Coded.self, forKey: .since).wrappedValue,
            until: try container.decode(RFC3339Coded.self, forKey: .until).wrappedValue,
            decodes: try container.decode(Int.self, forKey: .decodes),
            baselineDecodes: try container.decodeIfPresent(Int.self, forKey: .baselineDecodes), fields: fields,
            // Collectors before warnings sent none.
            warnings: try container.decodeIfPresent([QueryWarning].self, forKey: .warnings) ?? [])
    }
}

extension ReleaseVerdict.Outcome: Decodable {}

extension CheckedField: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            group: try container.decode(String.self, forKey: .group),
            path: try container.decode(String.self, forKey: .path),
            endpoint: try container.decode(String.self, forKey: .endpoint),
            kind: try container.decode(ReportKind.self, forKey: .kind),
            rate: try container.decodeIfPresent(Double.self, forKey: .rate),
            baselineRate: try container.decodeIfPresent(Double.self, forKey: .baselineRate),
            count: try container.decode(Int.self, forKey: .count),
            reason: try container.decode(String.self, forKey: .reason),
            outcome: .fail)
    }
}
