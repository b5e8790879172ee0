import Foundation

/// How alerts write numbers, durations and URLs, shared by the renderers, the CLI and the logs.
public enum AlertText {
    /// A number without a needless fraction: `5`, `2.5`, `0.25`.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A rate as a percentage with one decimal at most: `3.1%`, `100%`, `0.04%` for tiny ones.
    public static func percent(_ rate: Double) -> String {
        let value = rate * 100
        if value > 0 && value < 0.1 { return String(format: "%.2f%%", value) }
        let rounded = (value * 10).rounded() / 10
        return number(rounded) + "%"
    }

    /// A duration in the largest whole unit: `90s`, `10m`, `2h`, `7d`.
    public static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60)] where whole % size == 0 && whole >= size {
            return "\(whole / size)\(unit)"
        }
        return "\(whole)s"
    }

    /// A webhook URL without its secret parts (path, query, credentials): `https://hooks.slack.com/…`.
    ///
    /// Incoming-webhook URLs carry their secret in the path, so logs, errors and `alerts list` show this.
    public static func redacted(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host,
            !host.isEmpty
        else { return "<not a URL>" }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)/…"
    }
}
