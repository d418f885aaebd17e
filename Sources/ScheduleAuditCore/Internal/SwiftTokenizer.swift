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
    private let bytes: [UInt8]
    private var index = 0
    private var line = 0
    private var lineStart = 0
    private(set) var tokens: [SourceToken] = []
    private(set) var comments: [SourceComment] = []

    /// Tokenizes `source` completely.
    init(source: String) {
        bytes = Array(source.utf8)
        run()
    }

    private var column: Int { index - lineStart }

    private func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    private mutating func advance() {
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
                tokens.append(SourceToken(kind: .string, text: text(from: start), line: startLine, column: startColumn))
            case UInt8(ascii: "\""):
                let (startLine, startColumn) = (line, column)
                let content = lexString(hashes: 0)
                tokens.append(SourceToken(kind: .string, text: content, line: startLine, column: startColumn))
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

    private static func isIdentifierBody(_ byte: UInt8) -> Bool {
        isIdentifierHead(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
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
            return tokens.append(SourceToken(kind: .string, text: text(from: start), line: startLine, column: startColumn))
        }
        if peek(hashes) == UInt8(ascii: "\"") {
            let (startLine, startColumn) = (line, column)
            for _ in 0..<hashes { advance() }
            return tokens.append(SourceToken(kind: .string, text: lexString(hashes: hashes), line: startLine, column: startColumn))
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

    /// Lexes a string literal whose opening quote is at `index` (after any `#`s) and returns its content.
    /// Interpolations are skipped as code, including strings nested inside them.
    private mutating func lexString(hashes: Int) -> String {
        // `"""` opens a multi-line literal only when nothing but spaces follows it on its line: `#"""#`
        // is a one-line raw string holding a quote.
        var rest = 3
        while peek(rest) == UInt8(ascii: " ") || peek(rest) == UInt8(ascii: "\t") || peek(rest) == UInt8(ascii: "\r") { rest += 1 }
        let isMultiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"") && (peek(rest) == UInt8(ascii: "\n") || peek(rest) == nil)
        let quoteCount = isMultiline ? 3 : 1
        for _ in 0..<quoteCount { advance() }
        var content: [UInt8] = []
        while let byte = peek() {
            if !isMultiline && byte == UInt8(ascii: "\n") { break }  // unterminated: stop at the line end
            if byte == UInt8(ascii: "\"") && closes(quoteCount: quoteCount, hashes: hashes) {
                for _ in 0..<(quoteCount + hashes) { advance() }
                break
            }
            if byte == UInt8(ascii: "\\") && hashesFollow(hashes, from: index + 1) {
                let escaped = index + 1 + hashes
                guard escaped < bytes.count else { advance(); continue }
                for _ in 0...hashes { advance() }
                switch bytes[escaped] {
                case UInt8(ascii: "("):
                    skipInterpolation()
                case UInt8(ascii: "n"): content.append(UInt8(ascii: "\n")); advance()
                case UInt8(ascii: "t"): content.append(UInt8(ascii: "\t")); advance()
                default: content.append(bytes[escaped]); advance()
                }
                continue
            }
            content.append(byte)
            advance()
        }
        return String(decoding: content, as: UTF8.self)
    }

    private func hashesFollow(_ hashes: Int, from position: Int) -> Bool {
        (0..<hashes).allSatisfy { position + $0 < bytes.count && bytes[position + $0] == UInt8(ascii: "#") }
    }

    private func closes(quoteCount: Int, hashes: Int) -> Bool {
        (0..<quoteCount).allSatisfy { peek($0) == UInt8(ascii: "\"") } && hashesFollow(hashes, from: index + quoteCount)
    }

    /// Skips `( … )` of an interpolation whose `(` is at `index`; nested strings are lexed so that a `)`
    /// inside them does not end the interpolation early.
    private mutating func skipInterpolation() {
        var depth = 0
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                advance()
            case UInt8(ascii: ")"):
                depth -= 1
                advance()
                if depth == 0 { return }
            case UInt8(ascii: "\""):
                _ = lexString(hashes: 0)
            case UInt8(ascii: "#") where peek(1) == UInt8(ascii: "#") || peek(1) == UInt8(ascii: "\""):
                var hashes = 0
                while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
                guard peek(hashes) == UInt8(ascii: "\"") else { advance(); continue }
                for _ in 0..<hashes { advance() }
                _ = lexString(hashes: hashes)
            default:
                advance()
            }
        }
    }

    /// Whether the `/` at `index` opens a bare regex literal: it stands where an operand starts (not
    /// after a name, number, literal or closing bracket, where it divides), no space follows it, and an
    /// unescaped `/` closes it on the same line.
    private func startsBareRegex() -> Bool {
        if let last = tokens.last {
            let operandWords: Set<String> = ["return", "case", "in", "try", "await", "throw", "where", "if", "guard", "while", "else", "let", "var", "some", "any", "is", "as"]
            switch last.kind {
            case .identifier where !operandWords.contains(last.text), .number, .string: return false
            case .punctuation where [")", "]", "}", ">"].contains(last.text): return false
            // An operator that touches the `/` makes them one operator (`+/`, `=/`).
            case .punctuation where last.line == line && last.column + 1 == column: return false
            default: break
            }
        }
        guard let next = peek(1), next != UInt8(ascii: " "), next != UInt8(ascii: "\t"), next != UInt8(ascii: "\n"),
            next != UInt8(ascii: "=") else { return false }
        var position = index + 1
        var inClass = false
        // A literal never holds an unbalanced `)` (SE-0354): `{ /Case.a ~= $0 }).map(/Case.a)` is two
        // prefix operators, not a regex.
        var depth = 0
        while position < bytes.count, bytes[position] != UInt8(ascii: "\n") {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 1
            case UInt8(ascii: "["): inClass = true
            case UInt8(ascii: "]"): inClass = false
            case UInt8(ascii: "(") where !inClass: depth += 1
            case UInt8(ascii: ")") where !inClass:
                depth -= 1
                if depth < 0 { return false }
            case UInt8(ascii: "/") where !inClass: return bytes[position - 1] != UInt8(ascii: " ")
            default: break
            }
            position += 1
        }
        return false
    }

    /// Skips a regex literal's body, after its opening delimiter, through its closing `/` and `hashes`
    /// `#`s; escapes are skipped, and a bare literal (no `#`) ends at its line's end if unterminated.
    private mutating func lexRegexBody(hashes: Int) {
        while let byte = peek() {
            if byte == UInt8(ascii: "\n") && hashes == 0 { return }
            if byte == UInt8(ascii: "\\") {
                advance()
                if peek() != nil, peek() != UInt8(ascii: "\n") { advance() }
                continue
            }
            if byte == UInt8(ascii: "/") && hashesFollow(hashes, from: index + 1) {
                for _ in 0...hashes { advance() }
                return
            }
            advance()
        }
    }
}
