import Foundation

/// Parses and formats RFC 3339 timestamps such as `2026-11-21T09:59:58.123Z`.
///
/// Hand-written because Foundation's ISO 8601 parsers accept either fractional seconds or none, not
/// both, and are several times slower; this runs once per ingested report.
public enum RFC3339 {
    /// Parses an RFC 3339 date-time with optional fractional seconds and a `Z` or `±hh:mm` offset.
    /// - Returns: the date, or `nil` when the text is not a valid RFC 3339 date-time.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Parses the UTF-8 bytes of an RFC 3339 date-time, e.g. straight from a request body, with no copy.
    /// - Returns: the date, or `nil` when the bytes are not a valid RFC 3339 date-time.
    public static func date(utf8 bytes: UnsafeRawBufferPointer) -> Date? {
        parse(bytes)
    }

    /// Formats a date in UTC, with milliseconds only when they are not zero.
    public static func string(from date: Date) -> String {
        let totalMillis = (date.timeIntervalSince1970 * 1000).rounded()
        var seconds = Int64((totalMillis / 1000).rounded(.down))
        let millis = Int(totalMillis - Double(seconds) * 1000)
        let days = floorDiv(seconds, 86_400)
        seconds -= days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let hour = seconds / 3600, minute = (seconds % 3600) / 60, second = seconds % 60
        var text = "\(pad(year, 4))-\(pad(Int64(month), 2))-\(pad(Int64(day), 2))T"
        text += "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if millis != 0 { text += "." + pad(Int64(millis), 3) }
        return text + "Z"
    }

    private static func parse(_ b: UnsafeRawBufferPointer) -> Date? {
        // YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)
        guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20,
            b[13] == 0x3A, b[16] == 0x3A,
            let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
            let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 0x2E {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 0x5A || b[i] == 0x7A {
            i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D {
            guard i + 6 == b.count, b[i + 3] == 0x3A, let oh = digits(b, i + 1, 2), let om = digits(b, i + 4, 2),
                oh < 24, om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offset)
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func digits(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for i in start..<(start + count) {
            let c = b[i]
            guard c >= 0x30, c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days algorithms.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
