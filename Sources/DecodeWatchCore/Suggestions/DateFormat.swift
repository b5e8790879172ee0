/// The format of a date a backend sent, recognized from one sampled value, and the `JSONDecoder` strategy that
/// reads it.
enum DateFormat: Sendable, Hashable {
    /// `2026-11-21T10:00:00Z`, or with an offset.
    case iso8601
    /// `2026-11-21T10:00:00.123Z`: ISO 8601 with fractional seconds, which `.iso8601` does not read.
    case iso8601FractionalSeconds
    /// A number of seconds since 1970.
    case secondsSince1970
    /// A number of milliseconds since 1970.
    case millisecondsSince1970
    /// Another text format, as a `DateFormatter` pattern such as `yyyy-MM-dd`.
    case pattern(String)

    /// Recognizes the format of a sampled value.
    /// - Returns: the format, or `nil` when the value is no date format DecodeWatch knows.
    static func of(_ value: SampledValue) -> DateFormat? {
        switch value.type {
        case .number:
            guard let number = value.number, number > 0 else { return nil }
            // 1e8 s is 1973 and 1e11 s is the year 5138; 1e11 ms is 1973 and 1e14 ms is the year 5138.
            if number >= 1e8, number < 1e11 { return .secondsSince1970 }
            if number >= 1e11, number < 1e14 { return .millisecondsSince1970 }
            return nil
        case .string:
            return value.scalar.flatMap(of(text:))
        default:
            return nil
        }
    }

    /// Recognizes a text date by its shape, digits standing for `9`.
    private static func of(text: String) -> DateFormat? {
        let shape = String(text.map { $0.isASCII && $0.isNumber ? "9" : $0 })
        let date = "9999-99-99"
        let time = "99:99:99"
        guard shape.hasPrefix(date) else {
            // RFC 1123, as HTTP headers write dates: `Sat, 21 Nov 2026 10:00:00 GMT`.
            let rfc1123 =
                shape.count == 29 && shape.hasSuffix(" 9999 99:99:99 GMT") && shape.dropFirst(3).hasPrefix(", 99 ")
            return rfc1123 ? .pattern("EEE, dd MMM yyyy HH:mm:ss zzz") : nil
        }
        let rest = shape.dropFirst(date.count)
        if rest.isEmpty { return .pattern("yyyy-MM-dd") }
        guard let separator = rest.first, separator == "T" || separator == " ", rest.dropFirst().hasPrefix(time) else {
            return nil
        }
        var zone = rest.dropFirst(1 + time.count)
        var fractional = false
        if zone.first == "." {
            zone = zone.dropFirst().drop { $0 == "9" }
            fractional = true
        }
        let offset = zone == "Z" || zone == "+99:99" || zone == "-99:99"
        switch (separator, offset, zone.isEmpty, fractional) {
        case ("T", true, _, false): return .iso8601
        case ("T", true, _, true): return .iso8601FractionalSeconds
        case (_, false, true, false):
            return .pattern(separator == "T" ? "yyyy-MM-dd'T'HH:mm:ss" : "yyyy-MM-dd HH:mm:ss")
        default: return nil
        }
    }

    /// How the format is named in a sentence.
    var label: String {
        switch self {
        case .iso8601: return "ISO 8601"
        case .iso8601FractionalSeconds: return "ISO 8601 with fractional seconds"
        case .secondsSince1970: return "seconds since 1970"
        case .millisecondsSince1970: return "milliseconds since 1970"
        case .pattern(let pattern): return "the pattern \(pattern)"
        }
    }

    /// Swift that makes a `decoder` reading this format.
    var swift: String {
        switch self {
        case .iso8601: return strategy(".iso8601")
        case .iso8601FractionalSeconds:
            return strategy(
                """
                .custom { dateDecoder in
                    let text = try dateDecoder.singleValueContainer().decode(String.self)
                    return try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
                }
                """)
        case .secondsSince1970: return strategy(".secondsSince1970")
        case .millisecondsSince1970: return strategy(".millisecondsSince1970")
        case .pattern(let pattern):
            // The sample names no time zone (or only GMT): UTC is the usual meaning; change it if the API says otherwise.
            return """
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "\(pattern)"

                """ + strategy(".formatted(formatter)")
        }
    }

    private func strategy(_ strategy: String) -> String {
        "let decoder = JSONDecoder()\ndecoder.dateDecodingStrategy = \(strategy)"
    }
}
