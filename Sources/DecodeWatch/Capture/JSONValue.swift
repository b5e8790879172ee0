import DecodeWatchCore
import Foundation

/// Any JSON value, decoded from a decoder after a failure to re-read the payload for a snippet.
///
/// Decoding tries the JSON types one after another; that is slow compared with a typed decode, but
/// it runs only on the failure path, and only for the first occurrence of a failure (identical ones
/// are folded before a snippet is made).
indirect enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value at a path below this one, if there is one.
    func value(at path: some Collection<PathElement>) -> JSONValue? {
        var current = self
        for element in path {
            switch (element, current) {
            case (.key(let key), .object(let object)):
                guard let child = object[key] else { return nil }
                current = child
            case (.index(let index), .array(let array)):
                guard array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension JSONValue {
    /// This value with personal data replaced, by the rules of Core's ``Redactor`` (SPEC §7).
    ///
    /// Walks the tree with the redactor's own predicates instead of printing and re-parsing the
    /// text, so a large failing element is never serialized in full just to be cut to 2 KiB.
    func redacted(by redactor: Redactor) -> JSONValue {
        switch self {
        case .object(let object):
            var result = [String: JSONValue](minimumCapacity: object.count)
            for (key, child) in object {
                result[key] =
                    redactor.isSensitive(key: key) ? .string(Redactor.placeholder) : child.redacted(by: redactor)
            }
            return .object(result)
        case .array(let array):
            return .array(array.map { $0.redacted(by: redactor) })
        case .string(let text):
            return Redactor.looksSensitive(text) ? .string(Redactor.placeholder) : self
        case .integer(let number):
            // Card numbers are sometimes sent as JSON numbers.
            let text = String(number)
            return text.count >= 13 && Redactor.looksSensitive(text) ? .string(Redactor.placeholder) : self
        case .null, .bool, .number:
            return self
        }
    }

    /// Compact JSON text with sorted keys, cut at `limit` bytes on a character boundary.
    ///
    /// Writing stops as soon as the limit is passed, so the cost is bounded by the limit, not by the
    /// size of the value.
    func jsonText(limit: Int) -> String {
        var writer = JSONTextWriter(limit: limit)
        writer.write(self)
        return writer.result
    }
}

/// Writes JSON text into a byte buffer until a limit is passed.
private struct JSONTextWriter {
    let limit: Int
    var bytes: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
        bytes.reserveCapacity(min(limit + 16, 4096))
    }

    var full: Bool { bytes.count > limit }

    var result: String {
        guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
        // Cut on a UTF-8 boundary: drop continuation bytes (10xxxxxx) at the cut.
        var end = limit
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    mutating func write(_ value: JSONValue) {
        if full { return }
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .integer(let number): append(String(number))
        case .number(let number):
            append(
                number.isFinite
                    ? (number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)") : "null")
        case .string(let text): writeString(text)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in array.enumerated() {
                if full { return }
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (offset, key) in object.keys.sorted().enumerated() {
                if full { return }
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                write(object[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
            if full { return }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
