@_spi(WireInternals) import DecodeWatchWire
import Foundation

extension JSONValue {
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
    /// This value with personal data replaced, by the rules of Core's ``Redactor`` (docs/wire-format.md#redaction).
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
            // No more than a snippet's worth of a string is ever shown, so no more is redacted.
            return .string(redactor.redactText(utf8: text.utf8, maxBytes: Capture.snippetLimit))
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
    @_spi(WireInternals) public func jsonText(limit: Int) -> String {
        var buffer = JSONTextBuffer(limit: limit)
        write(into: &buffer)
        return buffer.result
    }

    private func write(into buffer: inout JSONTextBuffer) {
        if buffer.full { return }
        switch self {
        case .null: buffer.append("null")
        case .bool(let flag): buffer.append(flag ? "true" : "false")
        case .integer(let number): buffer.append(String(number))
        case .number(let number):
            buffer.append(
                number.isFinite
                    ? (number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)") : "null")
        case .string(let text): buffer.writeString(text)
        case .array(let array): buffer.writeArray(array) { buffer, element in element.write(into: &buffer) }
        case .object(let object):
            buffer.writeObject(keys: object.keys.sorted()) { buffer, key in object[key]!.write(into: &buffer) }
        }
    }
}
