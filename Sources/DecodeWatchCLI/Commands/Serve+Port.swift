import ArgumentParser
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DecodeWatchCommand.Serve {
    /// Refuses a port something else holds, before anything is created: `serve` opening the store first
    /// would leave a new SQLite file behind for a collector that never started.
    ///
    /// Binds the address as the collector will (address reuse on, so a port with only closing connections
    /// left is free) and lets it go at once. Whatever takes the port in between is still answered by
    /// ``PortInUseError``, from the collector's own bind.
    /// - Throws: ``PortInUseError`` when the port is taken; what binding throws otherwise.
    static func checkPortIsFree(host: String, port: Int) async throws {
        guard port != 0 else { return }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
            try await channel.close().get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw PortInUseError(port: port)
        }
    }
}

/// The port `serve` was given is held by another process.
struct PortInUseError: Error, CustomStringConvertible {
    /// The port, as `--port` gave it.
    let port: Int

    var description: String { "port \(port) is in use; stop what holds it or choose another with --port." }

    /// Whether `error` is the collector's own bind failing on a port in use.
    static func matches(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == EADDRINUSE
    }
}
