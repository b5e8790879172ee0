import DecodeWatchTestSupport
import Foundation

/// The samples of a Prometheus text exposition, read as Prometheus reads them: label values unescaped.
struct MetricsText {
    /// One sample line.
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    let samples: [Sample]

    /// Parses the text; comment lines are skipped.
    /// - Throws: ``TestFailure`` naming a line that is not a sample.
    init(_ text: String) throws {
        samples = try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { try Self.sample(Substring($0)) }
    }

    /// The samples of one metric.
    func named(_ name: String) -> [Sample] { samples.filter { $0.name == name } }

    /// The value of the sample of `name` whose labels include `labels`, if there is one.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        named(name).first { sample in labels.allSatisfy { sample.labels[$0.key] == $0.value } }?.value
    }

    private static func sample(_ line: Substring) throws -> Sample {
        var rest = line[...]
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let key = String(rest.prefix { $0 != "=" })
                rest = rest.dropFirst(key.count)
                guard rest.hasPrefix("=\"") else { throw TestFailure("No label value in: \(line)") }
                rest = rest.dropFirst(2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    guard character == "\\" else {
                        value.append(character)
                        continue
                    }
                    switch rest.first {
                    case "n": value.append("\n")
                    case "\\": value.append("\\")
                    case "\"": value.append("\"")
                    default: throw TestFailure("Unknown escape in: \(line)")
                    }
                    rest = rest.dropFirst()
                }
                guard !rest.isEmpty else { throw TestFailure("Unterminated label value in: \(line)") }
                labels[key] = value
                rest = rest.dropFirst()
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard let value = Double(rest.trimmingCharacters(in: .whitespaces)) else {
            throw TestFailure("No value in: \(line)")
        }
        return Sample(name: name, labels: labels, value: value)
    }
}

extension TestCollector {
    /// Scrapes `/metrics`, which must answer 200.
    func metrics() async throws -> MetricsText {
        let answer = try await send("GET", "/metrics")
        guard answer.status == 200 else { throw TestFailure("GET /metrics answered \(answer.status)") }
        return try MetricsText(answer.text)
    }

    /// Scrapes `/metrics` until `condition` holds of it, for at most 5 seconds, and returns the last scrape.
    func metrics(until condition: (MetricsText) -> Bool) async throws -> MetricsText {
        var scraped = try await metrics()
        try await eventually(within: .seconds(5), every: .milliseconds(20)) {
            scraped = try await metrics()
            return condition(scraped)
        }
        return scraped
    }
}
