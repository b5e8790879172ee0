/// Every role of storage together: ingest, reads, decisions about groups, alerts, digests' delivery, credentials,
/// dashboard sessions, contracts and retention.
///
/// The roles are flat protocols, each about one thing; they are combined only at the edge (`buildApplication`, the
/// commands), and each controller takes the roles it uses. ``SQLiteReportStore`` and `PostgresReportStore` conform
/// to all of them.
public typealias CollectorStore =
    ReportStore & FieldReads & GroupActionStore & AlertStore & DigestStore & CredentialStore & SessionStore
    & ContractStore & RetentionStore
