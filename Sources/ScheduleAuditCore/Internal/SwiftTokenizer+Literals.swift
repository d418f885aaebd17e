// The tokenizer's literal scanners: strings (single-line, multi-line, raw, with interpolation) and
// regex literals. Each starts at its opening delimiter and leaves `index` after the closing one.
extension SwiftTokenizer {
    /// Lexes a string literal whose opening quote is at `index` (after any `#`s) and returns its content.
    /// Interpolations are skipped as code, including strings nested inside them.
    mutating func lexString(hashes: Int) -> String {
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
    func startsBareRegex() -> Bool {
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
    mutating func lexRegexBody(hashes: Int) {
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
