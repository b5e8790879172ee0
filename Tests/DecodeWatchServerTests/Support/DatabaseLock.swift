import GRDB

/// Holds a SQLite file's write lock, as another process writing to it would, until the returned connection rolls
/// back: a collector on it then cannot fold batches nor read what it acknowledged.
func lockDatabase(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.allowsUnsafeTransactions = true
    let blocker = try DatabaseQueue(path: path, configuration: configuration)
    try blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
    return blocker
}
