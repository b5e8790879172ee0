import Foundation

extension Redactor {
    /// Writes a tree parsed by `JSONSerialization` as compact JSON with sorted keys, redacting as it goes.
    ///
    /// Used instead of redacting a copy of the tree and writing it with `JSONSerialization`: on Linux
    /// that writer is slow even on small snippets, and this one stops at the buffer's limit, so a
    /// 60 KiB snippet cut to 2 KiB only has its first 2 KiB redacted and written.
    func writeRedacted(_ value: Any, into buffer: inout JSONTextBuffer) {
        if buffer.full { return }
        switch JSONNode(value) {
        case .string(let string):
            // Only what still fits is redacted; the rest would be cut anyway.
            buffer.writeString(redactText(utf8: string.utf8, maxBytes: buffer.room))
        case .object(let object):
            buffer.writeObject(keys: object.keys.sorted()) { buffer, key in
                // The whole value goes, an object or array included.
                if isSensitive(key: key) {
                    buffer.writeString(Self.placeholder)
                } else {
                    writeRedacted(object[key]!, into: &buffer)
                }
            }
        case .array(let array):
            buffer.writeArray(array) { buffer, element in writeRedacted(element, into: &buffer) }
        case .number(let number):
            // JSONSerialization's booleans are the NSNumbers of type `c` on every platform.
            if number.objCType.pointee == CChar(UInt8(ascii: "c")) {
                buffer.append(number.boolValue ? "true" : "false")
            } else if Self.looksSensitive(number.stringValue) {
                // Card numbers are sometimes sent as JSON numbers.
                buffer.writeString(Self.placeholder)
            } else {
                buffer.append(number.stringValue)
            }
        case .null:
            buffer.append("null")
        }
    }
}

/// A value of a `JSONSerialization` tree, by what it is.
private enum JSONNode {
    case string(String)
    case object([String: Any])
    case array([Any])
    case number(NSNumber)
    case null

    /// The class of `JSONSerialization`'s booleans, a subclass of `NSNumber`.
    private static let boolean = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// Told by the value's exact type first, as `JSONSerialization` makes them: a failed `as` cast from `Any`
    /// costs more than writing the value (on Linux a cast to `NSNumber` tries bridging), and telling a `null`
    /// took four. Once the type is known, the cast to it cannot fail. Other representations of the same values
    /// are told by casting.
    init(_ value: Any) {
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(String.self): self = .string(value as! String)
        case ObjectIdentifier([String: Any].self): self = .object(value as! [String: Any])
        case ObjectIdentifier([Any].self): self = .array(value as! [Any])
        case ObjectIdentifier(NSNumber.self), Self.boolean: self = .number(value as! NSNumber)
        case ObjectIdentifier(NSNull.self): self = .null
        default:
            // Strings first (most values are), NSNumber last: on Linux a failed cast to it tries bridging.
            if let string = value as? String {
                self = .string(string)
            } else if let object = value as? [String: Any] {
                self = .object(object)
            } else if let array = value as? [Any] {
                self = .array(array)
            } else if let number = value as? NSNumber {
                self = .number(number)
            } else {
                self = .null
            }
        }
    }
}
