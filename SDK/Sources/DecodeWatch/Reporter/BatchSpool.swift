import Foundation

/// Unsent batches, kept on disk (or in memory) oldest first, within a count and a byte budget.
///
/// Each batch is stored as the exact compressed body that is uploaded, so a batch resent after a
/// restart carries the same `batch_id` and the collector counts it once. File names sort by age:
/// `<milliseconds>-<sequence>-<report count>-<batch id>.batch`.
struct BatchSpool {
    /// One stored batch.
    struct Entry: Hashable, Sendable {
        /// The file name, which is also the entry's identity.
        let name: String
        /// The batch's `batch_id`.
        let batchID: String
        /// Reports inside the batch.
        let reportCount: Int
        /// Compressed size.
        let bytes: Int
    }

    /// Where batches are kept; `nil` keeps them in memory only.
    private(set) var directory: URL?
    let maxBatches: Int
    let maxBytes: Int
    /// The protection class of the files written (``ReporterConfiguration/fileProtection``).
    let protection: FileProtectionType
    let files: SpoolFiles
    private(set) var entries: [Entry] = []
    /// Bodies of entries that are not on disk (no directory, or a write failed).
    private var memory: [String: Data] = [:]
    private var sequence = 0

    /// Describes a spool; nothing is read or created until ``refresh()``, so making one costs no I/O.
    init(
        directory: URL?, maxBatches: Int, maxBytes: Int,
        protection: FileProtectionType = .completeUntilFirstUserAuthentication, files: SpoolFiles = .system
    ) {
        self.directory = directory
        self.maxBatches = max(maxBatches, 1)
        self.maxBytes = max(maxBytes, 1)
        self.protection = protection
        self.files = files
    }

    /// Picks up batches written to the directory since the last look: an earlier launch's, or those
    /// ``Reporter/persist()`` wrote. Creates the directory the first time; one that cannot be made
    /// leaves the spool in memory.
    /// - Returns: the entries dropped because the spool is over its budget.
    mutating func refresh() -> [Entry] {
        guard let directory else { return [] }
        guard (try? files.createDirectory(directory)) != nil, let names = try? files.names(in: directory) else {
            self.directory = nil
            return []
        }
        let known = Set(entries.map(\.name))
        for name in names where name.hasSuffix(Self.suffix) && !known.contains(name) {
            let size = files.size(of: directory.appendingPathComponent(name))
            if let entry = Self.entry(named: name, bytes: size) { entries.append(entry) }
        }
        entries.sort { $0.name < $1.name }
        return trim()
    }

    /// Writes a batch into a spool directory as the file a spool picks up, creating the directory if needed.
    /// - Returns: the entry, or `nil` when it could not be written.
    static func write(
        batchID: String, reportCount: Int, body: Data, into directory: URL, sequence: Int = 0,
        protection: FileProtectionType, files: SpoolFiles
    ) -> Entry? {
        let name = fileName(batchID: batchID, reportCount: reportCount, sequence: sequence)
        do {
            try files.createDirectory(directory)
            try files.save(body, to: directory.appendingPathComponent(name), protection: protection)
        } catch {
            return nil
        }
        return Entry(name: name, batchID: batchID, reportCount: reportCount, bytes: body.count)
    }

    /// Total compressed bytes held.
    var totalBytes: Int { entries.reduce(0) { $0 + $1.bytes } }

    /// Whether an entry is still held.
    func contains(_ entry: Entry) -> Bool { entries.contains(entry) }

    /// Stores a batch, then drops the oldest batches while the spool is over budget.
    /// - Returns: the entries dropped to make room (possibly the new one, if it alone is too big).
    mutating func append(batchID: String, reportCount: Int, body: Data) -> [Entry] {
        sequence += 1
        if let directory,
            let entry = Self.write(
                batchID: batchID, reportCount: reportCount, body: body, into: directory, sequence: sequence,
                protection: protection, files: files)
        {
            entries.append(entry)
        } else {
            let name = Self.fileName(batchID: batchID, reportCount: reportCount, sequence: sequence)
            memory[name] = body
            entries.append(Entry(name: name, batchID: batchID, reportCount: reportCount, bytes: body.count))
        }
        return trim()
    }

    /// Drops the oldest batches while the spool holds more than its count or byte budget.
    private mutating func trim() -> [Entry] {
        var dropped: [Entry] = []
        var bytes = totalBytes
        while !entries.isEmpty, entries.count > maxBatches || bytes > maxBytes {
            let oldest = entries[0]
            remove(oldest)
            bytes -= oldest.bytes
            dropped.append(oldest)
        }
        return dropped
    }

    /// The stored body of an entry: its bytes, `missing` when it is gone, or `unreadable` when its file exists
    /// but cannot be read now (data protection while the device is locked), to be tried again later.
    func body(of entry: Entry) -> FileRead {
        if let data = memory[entry.name] { return .data(data) }
        guard let directory else { return .missing }
        return files.load(directory.appendingPathComponent(entry.name))
    }

    /// Deletes an entry; deleting one already gone does nothing.
    mutating func remove(_ entry: Entry) {
        entries.removeAll { $0 == entry }
        if memory.removeValue(forKey: entry.name) == nil, let directory {
            files.remove(directory.appendingPathComponent(entry.name))
        }
    }

    private static let suffix = ".batch"

    /// `<milliseconds>-<sequence>-<report count>-<batch id>.batch`: names sort by age.
    private static func fileName(batchID: String, reportCount: Int, sequence: Int) -> String {
        let millis = Int64(Date().timeIntervalSince1970 * 1000)
        return "\(pad(millis, 15))-\(pad(Int64(sequence), 6))-\(reportCount)-\(batchID)\(suffix)"
    }

    private static func entry(named name: String, bytes: Int) -> Entry? {
        let stem = name.dropLast(suffix.count)
        let parts = stem.split(separator: "-", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, let reports = Int(parts[2]), !parts[3].isEmpty else { return nil }
        return Entry(name: name, batchID: String(parts[3]), reportCount: reports, bytes: bytes)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(width - text.count, 0)) + text
    }
}
