/// What reports are grouped by: `(app.id, endpoint, path, kind)` after normalization (docs/wire-format.md#group-key).
///
/// Two keys are equal when their parts are equal byte for byte (``ExactText``), as their ids (a hash of the
/// bytes) and the databases have them: keys that are only canonically equivalent are different groups.
public struct GroupKey: Hashable, Sendable {
    /// The app id.
    public var app: String
    /// The normalized endpoint, e.g. `GET /v2/posts`.
    public var endpoint: String
    /// The rendered path, e.g. `$.results[*].title`.
    public var path: String
    /// The failure kind.
    public var kind: ReportKind

    /// Creates a group key from already normalized parts.
    public init(app: String, endpoint: String, path: String, kind: ReportKind) {
        self.app = app
        self.endpoint = endpoint
        self.path = path
        self.kind = kind
    }

    public static func == (left: GroupKey, right: GroupKey) -> Bool {
        left.kind == right.kind && ExactText(left.path) == ExactText(right.path)
            && ExactText(left.endpoint) == ExactText(right.endpoint) && ExactText(left.app) == ExactText(right.app)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ExactText(app))
        hasher.combine(ExactText(endpoint))
        hasher.combine(ExactText(path))
        hasher.combine(kind)
    }
}

/// The 64-bit FNV-1a hash: tiny, fast and stable across platforms, unlike `Hasher`. Used for install
/// ids, which only need to be counted apart, never for anything an attacker could profit from colliding.
public struct FNV1a: Sendable {
    /// The hash so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Starts an empty hash.
    public init() {}

    /// Adds a string followed by a NUL separator.
    public mutating func combine(_ text: String) {
        for byte in text.utf8 { add(byte) }
        add(0)
    }

    private mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }
}
