import Foundation

/// The per-user file that holds the profiles (``ProfileConfig``): `$XDG_CONFIG_HOME/decodewatch/config`, else
/// `~/.config/decodewatch/config`.
///
/// The file holds read tokens, so it is written with mode 0600 in a folder made with 0700, through a new file renamed
/// over the old one: a reader sees the old profiles or the new ones, never half a file, and no moment exists when
/// other users may read a token. A file others may read is still used, with a warning that says how to fix it, as
/// `gh` does: refusing it, as `ssh` does with keys, would stop every remote command over something `chmod` fixes.
struct ProfileStore {
    /// The config file.
    let file: URL

    /// The file the environment names.
    /// - Parameter environment: the process environment; `XDG_CONFIG_HOME` counts when it is an absolute path, as
    ///   the XDG base directory specification says, else `HOME` does.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let folder: URL
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            folder = URL(fileURLWithPath: config, isDirectory: true)
        } else if let home = environment["HOME"], !home.isEmpty {
            folder = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config")
        } else {
            folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        }
        file = folder.appendingPathComponent("decodewatch").appendingPathComponent("config")
    }

    /// The stored profiles; none when the file does not exist yet.
    /// - Parameter warn: where the warning about a file others may read goes; standard error by default.
    /// - Throws: ``ProfileError`` when the file exists but cannot be read or is not a profiles file.
    func load(warn: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) throws
        -> ProfileConfig
    {
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            if errno == ENOENT { return ProfileConfig() }
            throw ProfileError("Cannot read the profiles in \(file.path): \(String(cString: strerror(errno))).")
        }
        if status.st_mode & 0o077 != 0 {
            warn(
                "Warning: \(file.path) holds read tokens and other users may read it (mode "
                    + "\(String(status.st_mode & 0o777, radix: 8))): run `chmod 600 \(file.path)`.")
        }
        do {
            return try JSONDecoder().decode(ProfileConfig.self, from: try Data(contentsOf: file))
        } catch {
            throw ProfileError(
                "\(file.path) is not a profiles file this version can read (\(error.localizedDescription)): fix it, "
                    + "or remove it and log in again with `decodewatch login --url URL`.")
        }
    }

    /// Replaces the stored profiles with `config`, creating the folder (mode 0700) when needed.
    /// - Throws: ``ProfileError`` naming the file or folder and the reason when it cannot be written; the old file
    ///   is then unchanged.
    func save(_ config: ProfileConfig) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(config) + Data("\n".utf8)
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".config-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ProfileError("Cannot make the folder \(folder.path) for the profiles: \(error.localizedDescription).")
        }
        let failure = Self.writeNew(data, to: temporary.path) ?? (rename(temporary.path, file.path) == 0 ? nil : errno)
        if let failure {
            unlink(temporary.path)
            throw ProfileError("Cannot write the profiles to \(file.path): \(String(cString: strerror(failure))).")
        }
    }

    /// Writes `data` to a file that must not exist yet, readable and writable by its owner alone, and flushes it to
    /// disk, so that the rename that follows publishes a whole file.
    /// - Returns: the `errno` of the step that failed, or `nil` when the file is written.
    private static func writeNew(_ data: Data, to path: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { return written < 0 ? errno : EIO }
        return fsync(descriptor) == 0 ? nil : errno
    }
}
