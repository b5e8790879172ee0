/// A statement's text and arguments, built in the order they are written: each bound value takes the next
/// position and its placeholder (``SQLDialect/parameter(_:)``) is written for it, so no statement counts its
/// parameters by hand and a condition that binds a value can be added anywhere.
package struct SQLBuilder: Sendable {
    /// How the placeholders are spelled.
    package let dialect: SQLDialect
    /// The text so far.
    package private(set) var sql = ""
    /// The bound values so far, the first at position 1.
    package private(set) var arguments: [SQLValue] = []
    /// Whether every placeholder so far was written where its value was bound, so that text order is position
    /// order (``bindInOrder(_:)``).
    private var inTextOrder = true

    /// An empty statement.
    package init(_ dialect: SQLDialect) { self.dialect = dialect }

    /// Appends text, binding the values the fragment binds in the order they appear in it.
    package mutating func append(_ fragment: SQLFragment) {
        for part in fragment.parts {
            switch part {
            case .text(let text): sql += text
            case .values(let values): sql += placeholders(values)
            case .valuesInOrder(let values): sql += placeholdersInOrder(values)
            }
        }
    }

    /// Binds a value at the next position and returns its placeholder, for text written later that names the value
    /// once or more (such as a window's bounds, which several subqueries read).
    package mutating func bind(_ value: SQLValue) -> String {
        inTextOrder = false
        return placeholders([value])
    }

    /// The statement built.
    /// - Parameter isReused: see ``SQLStatement/isReused``.
    package func statement(isReused: Bool = false) -> SQLStatement {
        SQLStatement(sql, arguments, isReused: isReused)
    }

    /// The statement built, with a fragment appended: for several statements that share the values bound so far,
    /// each built from a copy of one builder.
    /// - Parameter isReused: see ``SQLStatement/isReused``.
    package func statement(appending fragment: SQLFragment, isReused: Bool = false) -> SQLStatement {
        var builder = self
        builder.append(fragment)
        return builder.statement(isReused: isReused)
    }

    /// Binds values at the next positions and returns their placeholders, comma-separated.
    private mutating func placeholders(_ values: [SQLValue]) -> String {
        values.map { value in
            arguments.append(value)
            return dialect.parameter(arguments.count)
        }
        .joined(separator: ", ")
    }

    /// Like ``placeholders(_:)``, but SQLite gets anonymous `?` while text order is position order (an anonymous
    /// parameter takes the position after the largest one written before it). SQLite finds its numbered `?NNN` by
    /// a linear scan of the statement's names each time one is parsed or bound, which made a 900-parameter insert
    /// cost more than the rows it writes.
    private mutating func placeholdersInOrder(_ values: [SQLValue]) -> String {
        guard dialect == .sqlite, inTextOrder else { return placeholders(values) }
        arguments += values
        return Array(repeating: "?", count: values.count).joined(separator: ", ")
    }
}

extension SQLDialect {
    /// A statement of one fragment, its values bound in the order they appear (``SQLBuilder``).
    /// - Parameter isReused: see ``SQLStatement/isReused``.
    package func statement(_ fragment: SQLFragment, isReused: Bool = false) -> SQLStatement {
        SQLBuilder(self).statement(appending: fragment, isReused: isReused)
    }
}

/// SQL text with values to bind where they appear, written as a string literal: `"… WHERE group_id = \(bind: id)"`.
/// Interpolated strings and numbers are SQL text, as in any Swift string; only `bind:` binds.
package struct SQLFragment: ExpressibleByStringInterpolation, Sendable {
    /// Text, or values whose placeholders go there, comma-separated.
    enum Part: Sendable {
        case text(String)
        case values([SQLValue])
        /// Values bound in text order, which SQLite may leave anonymous (``SQLBuilder``).
        case valuesInOrder([SQLValue])
    }

    /// The parts, in order.
    private(set) var parts: [Part]

    /// Text without values.
    package init(stringLiteral text: String) { parts = [.text(text)] }

    /// Text with values.
    package init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// The parts of an interpolated literal.
    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

        /// SQL text, such as a column, a subquery or a placeholder from ``SQLBuilder/bind(_:)``.
        package mutating func appendInterpolation(_ text: String) { parts.append(.text(text)) }

        /// A number written into the text.
        package mutating func appendInterpolation(_ number: some BinaryInteger) { parts.append(.text("\(number)")) }

        /// Another fragment, its values bound where it appears.
        package mutating func appendInterpolation(_ fragment: SQLFragment) { parts += fragment.parts }

        /// A value, bound at the next position.
        package mutating func appendInterpolation(bind value: SQLValue) { parts.append(.values([value])) }

        /// Values, bound at the next positions, placeholders comma-separated: for `IN (…)` and `VALUES (…)`.
        package mutating func appendInterpolation(bind values: [SQLValue]) { parts.append(.values(values)) }

        /// Like `bind:`, for a statement that binds every value once and in text order, such as a multi-row insert.
        package mutating func appendInterpolation(bindInOrder values: [SQLValue]) {
            parts.append(.valuesInOrder(values))
        }
    }
}
