import ArgumentParser
import Logging

/// How much the command logs, to standard error.
struct LoggingOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    /// Bootstraps swift-log once and returns the command's logger.
    func makeLogger(label: String = "decodewatch") -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .trace
            return handler
        }
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
