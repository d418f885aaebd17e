/// One token of Swift source, as far as the audit needs to tell code from comments and strings.
///
/// The audit has no parser (the library takes no package dependencies, so no swift-syntax); it only
/// needs to match braces and find a few identifiers, and for that it must never mistake text inside a
/// string or comment for code. Positions are 0-based lines and UTF-8 columns, the convention of
/// symbol-graph source locations.
struct SourceToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A name, keyword or `#directive` (keywords are not distinguished: the audit compares text).
        case identifier
        /// A string literal; `text` holds its content with simple escapes decoded.
        case string
        case number
        /// A single character of punctuation or operator.
        case punctuation
    }

    var kind: Kind
    var text: String
    var line: Int
    var column: Int
    /// The line the token ends on: `line`, but for a string or regex literal over several lines the
    /// line of its closing delimiter (where what follows it, `"""[...]`, goes on).
    var endLine: Int

    init(kind: Kind, text: String, line: Int, column: Int, endLine: Int? = nil) {
        (self.kind, self.text, self.line, self.column) = (kind, text, line, column)
        self.endLine = endLine ?? line
    }

    func isPunctuation(_ character: String) -> Bool { kind == .punctuation && text == character }

    func isIdentifier(_ name: String) -> Bool { kind == .identifier && text == name }
}

/// A `//` or `/* */` comment, kept so that suppression markers can be found.
struct SourceComment: Equatable, Sendable {
    var line: Int
    var text: String
}

/// Splits Swift source into tokens and comments.
///
/// Handles line and nested block comments, single-line, multi-line and raw (`#"…"#`) strings with
/// interpolation, regex literals (`/…/` where an operand may start, and `#/…/#`, multi-line too) and
/// backticked identifiers. A regex literal is a `.string` token, so its brackets and quotes are not
/// code.
struct SwiftTokenizer {
    // Read by the literal scanners (SwiftTokenizer+Literals.swift); only `advance()` moves them.
    let bytes: [UInt8]
    private(set) var index = 0
    private(set) var line = 0
    private var lineStart = 0
    private(set) var tokens: [SourceToken] = []
    private(set) var comments: [SourceComment] = []

    /// Tokenizes `source` completely.
    init(source: String) {
        bytes = Array(source.utf8)
        run()
    }

    var column: Int { index - lineStart }

    func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func run() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                advance()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                lexLineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                lexBlockComment()
            case UInt8(ascii: "/") where startsBareRegex():
                let (startLine, startColumn, start) = (line, column, index)
                advance()
                lexRegexBody(hashes: 0)
                tokens.append(SourceToken(kind: .string, text: text(from: start), line: startLine, column: startColumn, endLine: line))
            case UInt8(ascii: "\""):
                let (startLine, startColumn) = (line, column)
                let content = lexString(hashes: 0)
                tokens.append(SourceToken(kind: .string, text: content, line: startLine, column: startColumn, endLine: line))
            case UInt8(ascii: "#"):
                lexPound()
            case UInt8(ascii: "`"):
                lexBacktickedIdentifier()
            case _ where Self.isIdentifierHead(byte) || byte == UInt8(ascii: "$"):
                let (startLine, startColumn, start) = (line, column, index)
                advance()
                while let next = peek(), Self.isIdentifierBody(next) { advance() }
                tokens.append(SourceToken(kind: .identifier, text: text(from: start), line: startLine, column: startColumn))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (startLine, startColumn, start) = (line, column, index)
                while let next = peek(), Self.isIdentifierBody(next) || next == UInt8(ascii: ".") && isDigit(peek(1)) {
                    advance()
                }
                tokens.append(SourceToken(kind: .number, text: text(from: start), line: startLine, column: startColumn))
            default:
                tokens.append(SourceToken(kind: .punctuation, text: String(UnicodeScalar(byte)), line: line, column: column))
                advance()
            }
        }
    }

    private func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }

    private static func isIdentifierHead(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
            || byte >= 0x80  // any non-ASCII scalar: identifiers may use Unicode letters
    }

    // `$` continues a name too (`_$embed`, a macro's generated member), as Swift's lexer reads it.
    private static func isIdentifierBody(_ byte: UInt8) -> Bool {
        isIdentifierHead(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "$")
    }

    private func text(from start: Int) -> String {
        String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func lexLineComment() {
        let (startLine, start) = (line, index)
        while let byte = peek(), byte != UInt8(ascii: "\n") { advance() }
        comments.append(SourceComment(line: startLine, text: text(from: start)))
    }

    private mutating func lexBlockComment() {
        let (startLine, start) = (line, index)
        var depth = 0
        while peek() != nil {
            if peek() == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                depth += 1
                advance(); advance()
            } else if peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                advance(); advance()
                if depth == 0 { break }
            } else {
                advance()
            }
        }
        comments.append(SourceComment(line: startLine, text: text(from: start)))
    }

    private mutating func lexPound() {
        var hashes = 0
        while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
        if peek(hashes) == UInt8(ascii: "/") {  // an extended regex literal, `#/…/#`, maybe over lines
            let (startLine, startColumn, start) = (line, column, index)
            for _ in 0...hashes { advance() }
            lexRegexBody(hashes: hashes)
            return tokens.append(SourceToken(kind: .string, text: text(from: start), line: startLine, column: startColumn, endLine: line))
        }
        if peek(hashes) == UInt8(ascii: "\"") {
            let (startLine, startColumn) = (line, column)
            for _ in 0..<hashes { advance() }
            let content = lexString(hashes: hashes)
            return tokens.append(SourceToken(kind: .string, text: content, line: startLine, column: startColumn, endLine: line))
        }
        // `#if`, `#function`, `#selector`: one identifier token that keeps its `#`.
        let (startLine, startColumn, start) = (line, column, index)
        advance()
        while let next = peek(), Self.isIdentifierBody(next) { advance() }
        tokens.append(SourceToken(kind: .identifier, text: text(from: start), line: startLine, column: startColumn))
    }

    private mutating func lexBacktickedIdentifier() {
        let (startLine, startColumn) = (line, column)
        advance()
        let start = index
        while let byte = peek(), byte != UInt8(ascii: "`"), byte != UInt8(ascii: "\n") { advance() }
        let name = text(from: start)
        if peek() == UInt8(ascii: "`") { advance() }
        tokens.append(SourceToken(kind: .identifier, text: name, line: startLine, column: startColumn))
    }
}
