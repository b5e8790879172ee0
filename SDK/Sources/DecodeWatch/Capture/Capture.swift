@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The capture path every lenient wrapper calls from its catch handler.
///
/// Nothing here runs while decoding succeeds. On a failure it finds the payload's
/// ``DecodeContext``, classifies the error (``DecodeFailure``), and hands a ``Report`` to the
/// reporter, which folds it into an identical earlier one before the snippet is made.
enum Capture {
    /// Most bytes of a snippet (docs/wire-format.md#limits).
    static let snippetLimit = 2048
    /// Most characters of a message (docs/wire-format.md#limits).
    static let messageLimit = 1000
    /// Most characters of a type name (docs/wire-format.md#limits).
    static let typeNameLimit = 200
    /// Most elements of a path (docs/wire-format.md#limits).
    static let pathLimit = 64

    /// The context of the payload a decoder is reading, if it is sampled.
    static func context(of decoder: any Decoder) -> DecodeContext? {
        let context = DecodeContext.current ?? decoder.userInfo[.decodeWatch] as? DecodeContext
        guard let context, context.isSampled else { return nil }
        return context
    }

    /// Whether failures of this decoder would be reported.
    static func isActive(for decoder: any Decoder) -> Bool {
        context(of: decoder) != nil
    }

    /// Reports an error a wrapper caught while decoding its wrapped type.
    /// - Parameters:
    ///   - error: what the wrapped type threw.
    ///   - decoder: the wrapper's decoder; its path is the wrapper's position and its value is re-read for the snippet.
    ///   - wrapped: the type the wrapper tried to decode.
    static func caught(_ error: any Error, in decoder: any Decoder, wrapping wrapped: Any.Type) {
        guard let context = context(of: decoder) else { return }
        let failure = DecodeFailure(error: error, position: CodingPath.elements(decoder.codingPath), wrapped: wrapped)
        submit(failure, context: context, wrapping: wrapped) {
            try? decoder.singleValueContainer().decode(JSONValue.self)
        }
    }

    /// Reports a key that a lenient wrapper's property needs but that is absent or `null`.
    ///
    /// Synthesized `Decodable` never calls a wrapper's initializer for an absent key, so the
    /// wrappers' keyed-container overloads call this instead. The snippet is the object holding
    /// the key, rebuilt from the keys the container knows.
    static func missing<Key: CodingKey>(
        _ key: Key, in container: KeyedDecodingContainer<Key>, isNull: Bool, wrapping wrapped: Any.Type
    ) {
        // A keyed container does not expose `userInfo`; its super decoder does (made only on this failure path).
        let context: DecodeContext?
        if let current = DecodeContext.current {
            context = current.isSampled ? current : nil
        } else {
            context = (try? container.superDecoder()).flatMap { Self.context(of: $0) }
        }
        guard let context else { return }
        let path = CodingPath.elements(container.codingPath) + [PathElement(key)]
        let failure =
            isNull
            ? DecodeFailure(
                path: path, kind: .valueNotFound, expected: TypeName.of(wrapped),
                message: "Cannot get value of type \(TypeName.of(wrapped)) -- found null value instead")
            : DecodeFailure(
                path: path, kind: .keyNotFound, expected: TypeName.of(wrapped),
                message: "No value associated with key \(key) (\"\(key.stringValue)\").")
        submit(failure, context: context, wrapping: wrapped) {
            var object: [String: JSONValue] = [:]
            for known in container.allKeys {
                object[known.stringValue] = try? container.decode(JSONValue.self, forKey: known)
            }
            return .object(object)
        }
    }

    /// Reports a value the app does not know, such as a new enum case.
    static func unknownValue(_ rawValue: some Any, in decoder: any Decoder, wrapping wrapped: Any.Type) {
        guard let context = context(of: decoder) else { return }
        // The value is redacted with the rest of the message in `submitText`.
        let failure = DecodeFailure(
            path: CodingPath.elements(decoder.codingPath), kind: .unknownValue, expected: TypeName.of(wrapped),
            message: "Unknown \(TypeName.of(wrapped)) value \(rawValue)")
        submit(failure, context: context, wrapping: wrapped) {
            try? decoder.singleValueContainer().decode(JSONValue.self)
        }
    }

    /// Reports a failure of the whole payload, re-reading the raw data for the snippet.
    static func rootFailure(_ error: any Error, data: Data, context: DecodeContext, rootType: Any.Type) {
        let failure = DecodeFailure(error: error, position: [], wrapped: rootType)
        let redactor = context.reporter.configuration.redactor
        submitText(failure, context: context, wrapping: rootType) {
            guard let root = try? JSONDecoder().decode(JSONValue.self, from: data) else {
                // Not JSON at all (an HTML error page, plain text): its start, redacted as text before
                // it is cut (e-mail addresses and tokens included), shown as a JSON string.
                let text = redactor.redactText(utf8: data, maxBytes: snippetLimit)
                return JSONValue.string(text).jsonText(limit: snippetLimit)
            }
            // The object around the failing value: for a missing key, the object that lacks it.
            let around = root.value(at: context.keySpelling.payloadPath(failure.path).dropLast()) ?? root
            return around.redacted(by: redactor).jsonText(limit: snippetLimit)
        }
    }

    /// Hands a failure to the reporter (or to the open ``CaptureScope``).
    static func submit(
        _ failure: DecodeFailure, context: DecodeContext, wrapping wrapped: Any.Type, value: @escaping () -> JSONValue?
    ) {
        let redactor = context.reporter.configuration.redactor
        submitText(failure, context: context, wrapping: wrapped) {
            value().map { context.keySpelling.payloadValue($0).redacted(by: redactor).jsonText(limit: snippetLimit) }
        }
    }

    /// Folds a failure into an identical buffered one, or builds its report (message and snippet
    /// redacted) and hands it on. Folding comes first, so a field broken in every element of a long
    /// list costs one snippet, not one per element.
    private static func submitText(
        _ failure: DecodeFailure, context: DecodeContext, wrapping wrapped: Any.Type, snippet: () -> String?
    ) {
        #if DEBUG
            if context.reporter.configuration.assertOnFailure {
                assertionFailure(
                    "DecodeWatch: \(failure.kind) at \(failure.path) in \(context.endpoint): \(failure.message)")
            }
        #endif
        let type = (context.rootType ?? TypeName.of(wrapped)).truncated(to: typeNameLimit)
        let path = context.keySpelling.payloadPath(failure.path).prefix(pathLimit).map { element in
            if case .key(let key) = element { return PathElement.key(key.withoutNUL) }
            return element
        }
        let expected = failure.expected?.truncated(to: typeNameLimit)
        let key = FoldKey(endpoint: context.endpoint, path: path, kind: failure.kind, expected: expected, type: type)
        if CaptureScope.current == nil, context.reporter.fold(key) { return }
        var report = Report(
            occurredAt: Date(), endpoint: context.endpoint, type: type, path: path, kind: failure.kind,
            expected: expected,
            message: context.reporter.configuration.redactor.redactMessage(
                failure.message.withoutNUL, maxCharacters: messageLimit),
            keyDecoding: context.keyDecoding
        )
        if let scope = CaptureScope.current {
            report.snippet = snippet()
            scope.append(report, to: context.reporter)
        } else {
            context.reporter.record(report, snippet: snippet)
        }
    }
}

extension String {
    /// The first `limit` characters, counted as the collector counts them (Unicode code points), without U+0000.
    func truncated(to limit: Int) -> String {
        (utf8.count <= limit ? self : prefix(codePoints: limit)).withoutNUL
    }
}
