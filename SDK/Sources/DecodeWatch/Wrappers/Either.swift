/// One of two types, whichever the payload holds: `Either<Int, String>` for an id sent either way.
///
/// Decoding tries `Left`, then `Right`; nest it for more alternatives
/// (`Either<Photo, Either<Video, Link>>`). Failures inside the alternative that did not match are
/// not reported (they are not failures); when neither matches, it throws a `typeMismatch` at its
/// own position, which an enclosing ``Safe`` reports.
public enum Either<Left, Right> {
    /// The payload held a `Left`.
    case left(Left)
    /// The payload held a `Right`.
    case right(Right)

    /// The `Left` value, if that is what the payload held.
    public var left: Left? {
        if case .left(let value) = self { return value }
        return nil
    }

    /// The `Right` value, if that is what the payload held.
    public var right: Right? {
        if case .right(let value) = self { return value }
        return nil
    }
}

extension Either: Decodable where Left: Decodable, Right: Decodable {
    /// Decodes a `Left`, or else a `Right`.
    /// - Parameter decoder: the decoder positioned at the value.
    /// - Throws: `DecodingError.typeMismatch` when the value is neither.
    public init(from decoder: any Decoder) throws {
        // Only when failures are being reported: hold back what lenient wrappers inside an
        // alternative report until that alternative is known to match.
        let tracked = Capture.isActive(for: decoder)
        let leftError: any Error
        do {
            self = .left(
                tracked
                    ? try CaptureScope.tentatively { try Self.decode(Left.self, from: decoder) }
                    : try Self.decode(Left.self, from: decoder))
            return
        } catch {
            leftError = error
        }
        do {
            self = .right(
                tracked
                    ? try CaptureScope.tentatively { try Self.decode(Right.self, from: decoder) }
                    : try Self.decode(Right.self, from: decoder))
        } catch {
            throw DecodingError.typeMismatch(
                Self.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected \(TypeName.of(Left.self)) or \(TypeName.of(Right.self)); "
                        + "\(Self.summary(leftError)); \(Self.summary(error))",
                    underlyingError: error))
        }
    }

    /// Decodes through a container, so the decoder's date, data and key strategies apply.
    private static func decode<T: Decodable>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        try decoder.singleValueContainer().decode(type)
    }

    private static func summary(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension Either: Encodable where Left: Encodable, Right: Encodable {
    /// Encodes whichever value it holds.
    /// - Parameter encoder: the encoder.
    /// - Throws: what encoding the value throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .left(let value): try value.encode(to: encoder)
        case .right(let value): try value.encode(to: encoder)
        }
    }
}

extension Either: Sendable where Left: Sendable, Right: Sendable {}
extension Either: Equatable where Left: Equatable, Right: Equatable {}
extension Either: Hashable where Left: Hashable, Right: Hashable {}
