/// Everything the collector and its commands need from storage: reports, credentials, dashboard sessions,
/// digests, decisions about groups, retention, alerts and contracts.
///
/// One name for the composition so that the server, the commands and the tests never reach a backend
/// through runtime casts; ``SQLiteReportStore`` and `PostgresReportStore` both conform.
public typealias CollectorStore =
    ReportStore & CredentialStore & SessionStore & DigestStore & GroupActionStore & RetentionStore & AlertStore
    & ContractStore
