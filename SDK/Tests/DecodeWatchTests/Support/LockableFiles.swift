import Foundation

@testable import DecodeWatch

/// The real file system, except that while ``isLocked`` every read of an existing file fails as iOS fails it for a
/// file whose protection class is locked (`NSFileReadNoPermissionError`); and every write's options are kept.
final class LockableFiles: Sendable {
    private let locked = Locked(false)
    private let writes = Locked<[(name: String, options: Data.WritingOptions)]>([])

    /// Whether reads fail.
    var isLocked: Bool {
        get { locked.withLock { $0 } }
        set { locked.withLock { $0 = newValue } }
    }

    /// The options of every write so far, by file name.
    var writeOptions: [(name: String, options: Data.WritingOptions)] { writes.withLock { $0 } }

    /// The seam to hand the reporter.
    var files: SpoolFiles {
        SpoolFiles(
            read: { [self] url in
                if isLocked, FileManager.default.fileExists(atPath: url.path) {
                    throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: url.path])
                }
                return try SpoolFiles.system.read(url)
            },
            write: { [self] data, url, options in
                writes.withLock { $0.append((url.lastPathComponent, options)) }
                try SpoolFiles.system.write(data, url, options)
            })
    }
}
