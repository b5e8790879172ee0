import Foundation

/// What reading a kept file found.
enum FileRead: Equatable {
    /// The file's bytes.
    case data(Data)
    /// No such file: it was never written, or it was deleted.
    case missing
    /// The file exists but cannot be read now, as on iOS before the first unlock after a restart, or while the
    /// device is locked for a file under complete protection. It is tried again later, never replaced.
    case unreadable
}

/// The file operations of the spool and the install id, in one place so that tests can make reads fail the way
/// iOS data protection does, and see the protection asked for, on any platform.
struct SpoolFiles: Sendable {
    /// Reads a whole file.
    var read: @Sendable (URL) throws -> Data
    /// Writes a whole file with the given options.
    var write: @Sendable (Data, URL, Data.WritingOptions) throws -> Void

    /// The files on the real file system.
    static let system = SpoolFiles(read: { try Data(contentsOf: $0) }, write: { try $0.write(to: $1, options: $2) })

    /// Reads a file, telling a missing file from one that exists but cannot be read now.
    func load(_ url: URL) -> FileRead {
        do {
            return .data(try read(url))
        } catch {
            return FileManager.default.fileExists(atPath: url.path) ? .unreadable : .missing
        }
    }

    /// Writes a file atomically, under a protection class (which only Apple platforms apply).
    /// - Parameter replacing: `false` fails when the file already exists, so a value made once is never replaced.
    func save(_ data: Data, to url: URL, protection: FileProtectionType, replacing: Bool = true) throws {
        var options: Data.WritingOptions = replacing ? [.atomic] : [.withoutOverwriting]
        options.insert(Self.writingOption(for: protection))
        try write(data, url, options)
    }

    /// Creates a directory and its parents, excluded from device backups on Apple platforms: what it holds is
    /// unsent diagnostics of this install.
    func createDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #if canImport(Darwin)
            var excluded = URLResourceValues()
            excluded.isExcludedFromBackup = true
            var directory = url
            try? directory.setResourceValues(excluded)
        #endif
    }

    /// The names in a directory.
    func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
    }

    /// A file's size in bytes, `0` when it cannot be known.
    func size(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    /// Deletes a file; deleting one already gone does nothing.
    func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// The writing option of a protection class (compared by raw value: on Linux the type is not `Equatable`).
    private static func writingOption(for protection: FileProtectionType) -> Data.WritingOptions {
        switch protection.rawValue {
        case FileProtectionType.complete.rawValue: return .completeFileProtection
        case FileProtectionType.completeUnlessOpen.rawValue: return .completeFileProtectionUnlessOpen
        case FileProtectionType.none.rawValue: return .noFileProtection
        default: return .completeFileProtectionUntilFirstUserAuthentication
        }
    }
}
