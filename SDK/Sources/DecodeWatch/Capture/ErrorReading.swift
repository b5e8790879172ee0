@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// What a caught error says about a decoding failure, read the same way whichever Foundation threw it.
///
/// Everything comes from `DecodingError`'s cases and contexts, or from the same facts in the form Apple's
/// Foundation gives them when a `DecodingError` travels as an `NSError` (`NSCocoaErrorDomain` 4864 and 4865
/// with `NSCodingPath` and `NSDebugDescription`, as on iOS 15 and 16 when an error crosses Objective-C), never
/// from the name of a concrete error type.
struct ErrorReading: Equatable {
    /// What went wrong.
    var kind: ReportKind
    /// The coding path the error names (for a missing key, with the key last); `nil` when it names none.
    var path: [PathElement]?
    /// The type the error says was expected, when it says.
    var expected: String?
    /// The error's debug description.
    var message: String

    /// Reads an error; `nil` when it is not a decoding failure (an error the app's own code threw).
    init?(_ error: any Error) {
        if let decodingError = error as? DecodingError {
            guard let reading = Self(decodingError) else { return nil }
            self = reading
        } else if let reading = Self(bridged: error as NSError) {
            self = reading
        } else if DecoderErrorType.isDecoderError(error) {
            // The decoder's own error for a number that does not fit (swift-foundation throws it from inside a
            // decode and turns it into `dataCorrupted` only at the top level). It carries no path.
            self.init(kind: .dataCorrupted, path: nil, expected: nil, message: String(describing: error))
        } else {
            return nil
        }
    }

    init(kind: ReportKind, path: [PathElement]?, expected: String?, message: String) {
        self.kind = kind
        self.path = path
        self.expected = expected
        self.message = message
    }

    private init?(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(
                kind: .typeMismatch, path: CodingPath.elements(context.codingPath), expected: TypeName.of(type),
                message: context.debugDescription)
        case .valueNotFound(let type, let context):
            self.init(
                kind: .valueNotFound, path: CodingPath.elements(context.codingPath), expected: TypeName.of(type),
                message: context.debugDescription)
        case .keyNotFound(let key, let context):
            // Swift leaves the missing key out of the path; the wire format wants it as the last element
            // (docs/wire-format.md#coding-paths).
            self.init(
                kind: .keyNotFound, path: CodingPath.elements(context.codingPath) + [PathElement(key)], expected: nil,
                message: context.debugDescription)
        case .dataCorrupted(let context):
            self.init(
                kind: .dataCorrupted, path: CodingPath.elements(context.codingPath), expected: nil,
                message: context.debugDescription)
        @unknown default:
            return nil
        }
    }

    /// A `DecodingError` as an `NSError`, or Foundation's JSON syntax error (3840).
    private init?(bridged error: NSError) {
        guard error.domain == NSCocoaErrorDomain else { return nil }
        let message = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        let path = (error.userInfo["NSCodingPath"] as? [any CodingKey]).map(CodingPath.elements)
        switch CocoaError.Code(rawValue: error.code) {
        case .coderReadCorrupt:
            // typeMismatch and dataCorrupted share this code; only the description tells them apart.
            if let expected = Self.match(message, after: "Expected to decode ", before: " but found") {
                self.init(kind: .typeMismatch, path: path ?? [], expected: expected, message: message)
            } else {
                self.init(kind: .dataCorrupted, path: path, expected: nil, message: message)
            }
        case .coderValueNotFound:
            // keyNotFound and valueNotFound share this code; a missing key is named at the description's end.
            if message.hasPrefix("No value associated with key"),
                let key = Self.match(message, after: "(\"", before: "\")", fromEnd: true)
            {
                self.init(kind: .keyNotFound, path: (path ?? []) + [.key(key)], expected: nil, message: message)
            } else {
                let expected =
                    Self.match(message, after: "Expected ", before: " value but found null")
                    ?? Self.match(message, after: "value of type ", before: " -- found null")
                self.init(kind: .valueNotFound, path: path ?? [], expected: expected, message: message)
            }
        case .propertyListReadCorrupt:
            self.init(kind: .dataCorrupted, path: path, expected: nil, message: message)
        default:
            return nil
        }
    }

    /// The text between two markers (the first `after`, or the last when `fromEnd`), if both are there.
    private static func match(_ text: String, after start: String, before end: String, fromEnd: Bool = false)
        -> String?
    {
        guard let opening = text.range(of: start, options: fromEnd ? .backwards : []),
            let closing = text.range(of: end, range: opening.upperBound..<text.endIndex)
        else { return nil }
        let found = text[opening.upperBound..<closing.lowerBound]
        return found.isEmpty ? nil : String(found)
    }
}

/// The type of the error the platform's `JSONDecoder` throws from inside a decode when it does not throw a
/// `DecodingError` there, learned once by making it fail, so no type name is ever compared.
enum DecoderErrorType {
    private struct Probe: Decodable {
        static let thrown = Locked<ObjectIdentifier?>(nil)

        init(from decoder: any Decoder) throws {
            do {
                _ = try decoder.singleValueContainer().decode(Int.self)
            } catch {
                if !(error is DecodingError) { Self.thrown.withLock { $0 = ObjectIdentifier(Swift.type(of: error)) } }
                throw error
            }
        }
    }

    /// `nil` where the decoder throws only `DecodingError`s.
    private static let thrownType: ObjectIdentifier? = {
        _ = try? JSONDecoder().decode(Probe.self, from: Data("42.5".utf8))
        return Probe.thrown.withLock { $0 }
    }()

    /// Whether an error is of the decoder's own type.
    static func isDecoderError(_ error: any Error) -> Bool {
        thrownType != nil && ObjectIdentifier(Swift.type(of: error)) == thrownType
    }
}
