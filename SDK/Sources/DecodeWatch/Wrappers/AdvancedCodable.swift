/// A type decoded through a data-transfer object and a transforming initializer.
///
/// Keeps the wire shape (the `DecodingDTO`, synthesized `Decodable`) apart from the app's model,
/// which may validate, rename or combine fields. An error the transform throws is turned into a
/// `DecodingError.dataCorrupted` at the value's position, so lenient wrappers report it with the
/// right path.
///
/// ```swift
/// struct Release: AdvancedDecodable {
///     struct DecodingDTO: Decodable { let tag_name: String; let draft: Bool }
///     let version: String
///     init(dto: DecodingDTO) throws {
///         guard !dto.draft else { throw ReleaseError.draft }
///         version = dto.tag_name
///     }
/// }
/// ```
public protocol AdvancedDecodable: Decodable {
    /// The wire shape.
    associatedtype DecodingDTO: Decodable

    /// Makes the model from its wire shape.
    /// - Parameter dto: the decoded wire shape.
    /// - Throws: any error when the wire value cannot be used.
    init(dto: DecodingDTO) throws
}

extension AdvancedDecodable {
    /// Decodes the DTO, then transforms it.
    /// - Parameter decoder: the decoder positioned at the value.
    /// - Throws: the DTO's decoding errors; a transform error as `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let dto = try DecodingDTO(from: decoder)
        do {
            try self.init(dto: dto)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(TypeName.of(Self.self)) rejected its decoded value: \(error)",
                    underlyingError: error))
        }
    }
}

/// A type encoded through a data-transfer object: the inverse of ``AdvancedDecodable``.
public protocol AdvancedEncodable: Encodable {
    /// The wire shape.
    associatedtype EncodingDTO: Encodable

    /// The model in its wire shape.
    var encodingDTO: EncodingDTO { get }
}

extension AdvancedEncodable {
    /// Encodes the DTO.
    /// - Parameter encoder: the encoder.
    /// - Throws: what encoding the DTO throws.
    public func encode(to encoder: any Encoder) throws {
        try encodingDTO.encode(to: encoder)
    }
}

/// A type both decoded and encoded through data-transfer objects.
public typealias AdvancedCodable = AdvancedDecodable & AdvancedEncodable
