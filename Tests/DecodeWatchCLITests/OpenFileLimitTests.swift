import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decodewatch serve` started from a shell whose open-file limit is lower than its connections need.
@Suite("serve and the open-file limit")
struct OpenFileLimitTests {
    @Test("serve raises a low soft open-file limit to fit --max-connections, as far as the hard limit allows")
    func raisesSoftLimit() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CLI.start(
            ["serve", "--port", "0", "--db", folder.appendingPathComponent("db.sqlite").path], ulimit: "-Sn 256")
        _ = try await server.port()
        let (soft, hard) = try Self.openFileLimit(of: server.process.processIdentifier)
        // The default --max-connections (4,096) plus 128 kept for the database and the listener.
        #expect(soft == min(4096 + 128, hard), "soft limit \(soft), hard \(hard)")
        #expect(!server.readLog().contains("open-file limit"), "warned: \(server.readLog())")
        #expect(try await server.terminate() == 0)
    }

    @Test("serve warns, naming the limit and --max-connections, when the hard open-file limit is too low")
    func warnsWhenHardLimitIsTooLow() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CLI.start(
            [
                "serve", "--port", "0", "--max-connections", "2048", "--db",
                folder.appendingPathComponent("db.sqlite").path,
            ],
            ulimit: "-n 512")
        _ = try await server.port()
        #expect(
            try await server.waitForLog(containing: "The open-file limit is 512 (hard limit 512)"),
            "\(server.readLog())")
        #expect(server.readLog().contains("2048 connections --max-connections allows"))
        // The collector still serves what fits.
        let posted = try await CLI.postExampleBatch(
            port: try await server.port(), session: URLSession(configuration: .ephemeral))
        #expect(posted.status == 202)
        #expect(try await server.terminate() == 0)
    }

    /// The soft and hard open-file limits of a running process, from `/proc/PID/limits`.
    private static func openFileLimit(of pid: Int32) throws -> (soft: Int, hard: Int) {
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let figures = line.dropFirst("Max open files".count).split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 2, "\(line)")
        return (figures[0], figures[1])
    }
}
