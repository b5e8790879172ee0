import Foundation

/// Where and how ``PostgresReportStore`` connects, usually read from a `postgres://` URL.
///
/// The password never appears in ``description``, ``redactedURL`` or a mirror, so a configuration
/// can be logged and named in error messages.
public struct PostgresStoreConfiguration: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Whether and how connections are encrypted (the URL's `sslmode`, with libpq's meanings).
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Never encrypt.
        case disable
        /// Encrypt when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// Always encrypt, without checking the certificate; refuse a server without TLS.
        case require
        /// Always encrypt and check the certificate and host name against the system's trust roots,
        /// or against the CA file given as `sslrootcert`.
        case verifyFull = "verify-full"
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The role to log in as.
    public var username: String
    /// The role's password, if the server asks for one.
    public var password: String?
    /// The database; the server's default (the role's name) when `nil`.
    public var database: String?
    /// Encryption.
    public var tlsMode: TLSMode
    /// A PEM file of trusted certificate authorities, for ``TLSMode/verifyFull``.
    public var rootCertificatePath: String?
    /// The most connections one process opens.
    public var poolSize: Int
    /// The schema the tables live in, created when missing; the role's `search_path` when `nil`.
    public var schema: String?
    /// How long an operation waits for a pooled connection before failing as unavailable. The pool
    /// keeps retrying a lost server in the background; requests must not wait with it, so ingest
    /// answers 503 (and `/readyz` too) within seconds of an outage.
    public var acquireTimeout: Duration = .seconds(3)
    /// How long a writing transaction, its commit included, may run on a connection once handed out. Past it the
    /// operation fails as unavailable and the connection is closed, never returned to the pool: a server
    /// that is frozen, or a socket that died without a word, would otherwise hold the request, and every
    /// batch committed after it, forever. A commit cut short may still have committed on the server; a
    /// client that sends the batch again is answered that it was stored already (docs/wire-format.md#duplicates).
    public var transactionTimeout: Duration = .seconds(10)
    /// The same for a read-only snapshot (a summary or a digest over a long window), which may rightly
    /// take longer than a commit.
    public var readTimeout: Duration = .seconds(30)
    /// How long opening a connection may take, handshake and login included, before the pool tries again.
    public var connectTimeout: Duration = .seconds(5)

    /// The default number of pooled connections.
    public static let defaultPoolSize = 10

    /// Creates a configuration.
    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
        tlsMode: TLSMode = .prefer, rootCertificatePath: String? = nil, poolSize: Int = defaultPoolSize,
        schema: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tlsMode = tlsMode
        self.rootCertificatePath = rootCertificatePath
        self.poolSize = poolSize
        self.schema = schema
    }

    /// Reads a URL: `postgres://user:password@host:5432/database?sslmode=require`.
    ///
    /// `postgresql://` works too; user name, password and database are percent-decoded. The query
    /// may hold `sslmode` (`disable`, `prefer`, `require`, `verify-full`; default `prefer`),
    /// `sslrootcert` (with `verify-full`) and `schema`; anything else is refused rather than ignored.
    /// - Parameter url: the URL.
    /// - Throws: ``PostgresConfigurationError`` naming what is wrong; it never repeats the password.
    public init(url: String) throws(PostgresConfigurationError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["postgres", "postgresql"].contains(scheme)
        else {
            throw PostgresConfigurationError(
                "The database URL must look like postgres://user:password@host:5432/database.")
        }
        guard let username = components.user, !username.isEmpty else {
            throw PostgresConfigurationError("The database URL names no user: write postgres://user@host/database.")
        }
        var host = components.host ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw PostgresConfigurationError("The database URL names no host: write postgres://user@host/database.")
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.init(
            host: host, port: components.port ?? 5432, username: username, password: components.password,
            database: path.isEmpty ? nil : path)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw PostgresConfigurationError(
                        "sslmode '\(item.value ?? "")' in the database URL must be one of "
                            + TLSMode.allCases.map(\.rawValue).joined(separator: ", ") + ".")
                }
                tlsMode = mode
            case "sslrootcert":
                rootCertificatePath = item.value
            case "schema":
                schema = item.value.flatMap { $0.isEmpty ? nil : $0 }
            default:
                throw PostgresConfigurationError(
                    "The database URL has an unknown parameter '\(item.name)'; "
                        + "only sslmode, sslrootcert and schema are read.")
            }
        }
        if rootCertificatePath != nil && tlsMode != .verifyFull {
            throw PostgresConfigurationError("sslrootcert in the database URL needs sslmode=verify-full.")
        }
    }

    /// The URL without the password, e.g. `postgres://decodewatch@db.internal:5432/decodewatch?sslmode=require`.
    public var redactedURL: String {
        let address = host.contains(":") ? "[\(host)]" : host
        let query = [
            tlsMode == .prefer ? nil : "sslmode=\(tlsMode.rawValue)", schema.map { "schema=\($0)" },
        ].compactMap { $0 }.joined(separator: "&")
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let path = (database ?? "").addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        return "postgres://\(user)@\(address):\(port)/\(path)\(query.isEmpty ? "" : "?" + query)"
    }

    public var description: String { redactedURL }

    public var customMirror: Mirror { Mirror(self, children: ["url": redactedURL], displayStyle: .struct) }
}

/// A database URL or setting that cannot be used; its message never repeats a password.
public struct PostgresConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence a person can act on.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
