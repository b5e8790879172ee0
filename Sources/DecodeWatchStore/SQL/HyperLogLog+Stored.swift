import DecodeWatchCore

extension HyperLogLog {
    /// The sketch stored in a row's `sketch` column, for the group in its `group_seq` column.
    /// - Throws: ``StoreError`` `unavailable` when the bytes are not a sketch this version reads.
    init(storedIn row: SQLRecord) throws {
        do {
            try self.init(bytes: try row.blob("sketch"))
        } catch let error as SketchFormatError {
            let group = try row.integer("group_seq")
            throw StoreError(
                .unavailable,
                "An install sketch of the group with group_seq \(group) cannot be read: \(error.message). Run a "
                    + "DecodeWatch version that reads it, or delete the rows with group_seq \(group) from "
                    + "group_hour_install_sketches and group_minute_install_sketches to count its installs from the "
                    + "kept hashes only.")
        }
    }
}
