import Foundation

/// A batch of reports from one app install, the body of `POST /v1/reports` (docs/wire-format.md#batch).
///
/// The SDK builds and encodes this type. The collector decodes batches leniently with
/// ``IncomingBatch`` so that one malformed report does not fail its neighbours.
public struct ReportBatch: Codable, Sendable, Hashable {
    /// Client-made unique id; resending the same id is not counted twice.
    public var batchID: String
    /// When the client sent the batch.
    public var sentAt: Date?
    /// The app that decoded.
    public var app: AppInfo
    /// The SDK that reported.
    public var sdk: SDKInfo?
    /// Opaque per-install id, used only to count distinct installs.
    public var installID: String?
    /// Where the app runs (``EnvironmentName``); `nil` counts as `production`.
    public var environment: String?
    /// How many responses of each endpoint were decoded in the batch period, failed or not.
    public var decodes: [DecodeCount]
    /// The failures.
    public var reports: [Report]

    /// Creates a batch.
    public init(
        batchID: String, sentAt: Date? = nil, app: AppInfo, sdk: SDKInfo? = nil, installID: String? = nil,
        environment: String? = nil, decodes: [DecodeCount] = [], reports: [Report]
    ) {
        self.batchID = batchID
        self.sentAt = sentAt
        self.app = app
        self.sdk = sdk
        self.installID = installID
        self.environment = environment
        self.decodes = decodes
        self.reports = reports
    }

    @_spi(WireInternals) public enum CodingKeys: String, CodingKey {
        case batchID = "batch_id"
        case sentAt = "sent_at"
        case installID = "install_id"
        case app, sdk, environment, decodes, reports
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.batchID = try container.decode(String.self, forKey: .batchID)
        if let sent = try container.decodeIfPresent(String.self, forKey: .sentAt) {
            guard let date = RFC3339.date(from: sent) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sentAt, in: container, debugDescription: "not an RFC 3339 time: \(sent)")
            }
            self.sentAt = date
        }
        self.app = try container.decode(AppInfo.self, forKey: .app)
        self.sdk = try container.decodeIfPresent(SDKInfo.self, forKey: .sdk)
        self.installID = try container.decodeIfPresent(String.self, forKey: .installID)
        self.environment = try container.decodeIfPresent(String.self, forKey: .environment)
        self.decodes = try container.decodeIfPresent([DecodeCount].self, forKey: .decodes) ?? []
        self.reports = try container.decode([Report].self, forKey: .reports)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(batchID, forKey: .batchID)
        try container.encodeIfPresent(sentAt.map(RFC3339.string(from:)), forKey: .sentAt)
        try container.encode(app, forKey: .app)
        try container.encodeIfPresent(sdk, forKey: .sdk)
        try container.encodeIfPresent(installID, forKey: .installID)
        try container.encodeIfPresent(environment, forKey: .environment)
        if !decodes.isEmpty { try container.encode(decodes, forKey: .decodes) }
        try container.encode(reports, forKey: .reports)
    }
}

/// The app a batch comes from (docs/wire-format.md#batch, `app`).
public struct AppInfo: Codable, Sendable, Hashable {
    /// Bundle id or app name, 1–200 characters.
    public var id: String
    /// Marketing version, e.g. `5.2.0`.
    public var version: String?
    /// Build number.
    public var build: String?
    /// Platform name, e.g. `iOS`.
    public var platform: String?
    /// Operating system version.
    public var os: String?

    /// Creates app information.
    public init(id: String, version: String? = nil, build: String? = nil, platform: String? = nil, os: String? = nil) {
        self.id = id
        self.version = version
        self.build = build
        self.platform = platform
        self.os = os
    }
}

/// The SDK a batch comes from (docs/wire-format.md#batch, `sdk`).
public struct SDKInfo: Codable, Sendable, Hashable {
    /// SDK name, e.g. `decodewatch-swift`.
    public var name: String?
    /// SDK version.
    public var version: String?

    /// Creates SDK information.
    public init(name: String? = nil, version: String? = nil) {
        self.name = name
        self.version = version
    }
}

/// How many responses of one endpoint were decoded (docs/wire-format.md#decode-counts, `decodes[]`).
public struct DecodeCount: Codable, Sendable, Hashable {
    /// The endpoint, written like `reports[].endpoint`.
    public var endpoint: String
    /// Number of responses decoded, failed or not.
    public var count: Int

    /// Creates a decode count.
    public init(endpoint: String, count: Int) {
        self.endpoint = endpoint
        self.count = count
    }
}
