import Foundation

extension Redactor {
    /// Writes a tree parsed by `JSONSerialization` as compact JSON with sorted keys, redacting as it goes.
    ///
    /// Used instead of redacting a copy of the tree and writing it with `JSONSerialization`: on Linux
    /// that writer takes over a millisecond for 2 KiB, and this one stops at the buffer's limit, so a
    /// 60 KiB snippet cut to 2 KiB only has its first 2 KiB redacted and written.
    func writeRedacted(_ value: Any, into buffer: inout JSONTextBuffer) {
        if buffer.full { return }
        switch value {
        // Strings first (most values are), NSNumber last: on Linux a failed cast to it tries bridging.
        case let string as String:
            // Only what still fits is redacted; the rest would be cut anyway.
            buffer.writeString(redactText(utf8: string.utf8, maxBytes: buffer.room))
        case let object as [String: Any]:
            buffer.writeObject(keys: object.keys.sorted()) { buffer, key in
                // The whole value goes, an object or array included.
                if isSensitive(key: key) {
                    buffer.writeString(Self.placeholder)
                } else {
                    writeRedacted(object[key]!, into: &buffer)
                }
            }
        case let array as [Any]:
            buffer.writeArray(array) { buffer, element in writeRedacted(element, into: &buffer) }
        case let number as NSNumber:
            // JSONSerialization's booleans are the NSNumbers of type `c` on every platform.
            if number.objCType.pointee == CChar(UInt8(ascii: "c")) {
                buffer.append(number.boolValue ? "true" : "false")
            } else if Self.looksSensitive(number.stringValue) {
                // Card numbers are sometimes sent as JSON numbers.
                buffer.writeString(Self.placeholder)
            } else {
                buffer.append(number.stringValue)
            }
        default:
            buffer.append("null")
        }
    }
}
