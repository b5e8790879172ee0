import Foundation

extension HyperLogLog {
    /// The version of the byte layout ``bytes`` writes; ``init(bytes:)`` reads only this one.
    public static let formatVersion: UInt8 = 1

    /// The sketch as bytes to store (a BLOB or `bytea`).
    ///
    /// Three header bytes (``formatVersion``, ``precision``, the layout), then the registers: dense, one byte
    /// each, or sparse, three bytes (index, big-endian, then value) per non-zero register in index order,
    /// whichever is smaller. A sketch just past 1,000 installs has under 1,000 non-zero registers, so sparse
    /// keeps it near 3 KiB instead of 16 KiB.
    public var bytes: Data {
        let filled = registers.indices.filter { registers[$0] != 0 }
        let sparse = filled.count * 3 < Self.registerCount
        var bytes = [Self.formatVersion, UInt8(Self.precision), sparse ? Layout.sparse : Layout.dense]
        if sparse {
            bytes.reserveCapacity(3 + filled.count * 3)
            for index in filled {
                // Appended one by one: an array literal per register allocated thousands per sketch.
                bytes.append(UInt8(index >> 8))
                bytes.append(UInt8(index & 0xFF))
                bytes.append(registers[index])
            }
        } else {
            bytes += registers
        }
        return Data(bytes)
    }

    /// Reads a sketch that ``bytes`` wrote.
    /// - Parameter bytes: stored bytes.
    /// - Throws: ``SketchFormatError`` when they are not a sketch of this format version and precision:
    ///   damaged, cut short, or written by a newer version.
    public init(bytes data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 3 else { throw SketchFormatError("it has \(bytes.count) bytes, fewer than its header") }
        guard bytes[0] == Self.formatVersion else {
            throw SketchFormatError(
                "its format version is \(bytes[0]), not \(Self.formatVersion); was it written by a newer version?")
        }
        guard bytes[1] == Self.precision else {
            throw SketchFormatError("its precision is \(bytes[1]), not \(Self.precision)")
        }
        let body = bytes[3...]
        switch bytes[2] {
        case Layout.dense:
            guard body.count == Self.registerCount else {
                throw SketchFormatError("it holds \(body.count) registers, not \(Self.registerCount)")
            }
            guard body.allSatisfy({ $0 <= Self.maxRank }) else {
                throw SketchFormatError("a register is above \(Self.maxRank)")
            }
            self.init(checkedRegisters: Array(body))
        case Layout.sparse:
            self.init(checkedRegisters: try Self.sparseRegisters(Array(body)))
        default:
            throw SketchFormatError("its layout is \(bytes[2]), neither dense (0) nor sparse (1)")
        }
    }

    /// The registers of a sparse body: (index, value) entries, indexes strictly increasing.
    private static func sparseRegisters(_ body: [UInt8]) throws -> [UInt8] {
        guard body.count % 3 == 0 else {
            throw SketchFormatError("its sparse registers take \(body.count) bytes, not a multiple of 3")
        }
        var registers = Array(repeating: UInt8(0), count: registerCount)
        var previous = -1
        for start in stride(from: 0, to: body.count, by: 3) {
            let index = Int(body[start]) << 8 | Int(body[start + 1])
            let value = body[start + 2]
            guard index > previous, index < registerCount else {
                throw SketchFormatError("register \(index) is out of order or out of range")
            }
            guard value >= 1, value <= maxRank else {
                throw SketchFormatError("register \(index) holds \(value), outside 1…\(maxRank)")
            }
            registers[index] = value
            previous = index
        }
        return registers
    }

    /// The third header byte.
    private enum Layout {
        static let dense: UInt8 = 0
        static let sparse: UInt8 = 1
    }
}
