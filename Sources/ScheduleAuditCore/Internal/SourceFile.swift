/// A tokenized source file and the few structural questions the audit asks of it.
///
/// Everything here is a scan, not a parse: it matches brackets and looks at the tokens next to a
/// position that the symbol graph reported. That is enough because the compiler has already accepted
/// the file; the scan never has to decide whether code is valid.
struct SourceFile: Sendable {
    /// The marker that silences the audit for one declaration (on its line or the line above).
    static let suppressionMarker = "schedule-audit:ignore"

    /// Keywords that start a new declaration; seeing one means the previous one had no body.
    private static let declarationKeywords: Set<String> = [
        "func", "var", "let", "init", "deinit", "subscript", "class", "struct", "enum", "actor",
        "protocol", "extension", "typealias", "case", "import",
    ]

    let path: String
    let tokens: [SourceToken]
    let comments: [SourceComment]

    init(path: String, text: String) {
        self.path = path
        let tokenizer = SwiftTokenizer(source: text)
        tokens = tokenizer.tokens
        comments = tokenizer.comments
    }

    /// The index of the first token at or after a 0-based position.
    func tokenIndex(line: Int, column: Int) -> Int? {
        // Tokens are in source order: a binary search, since every member's scan starts with one.
        var low = 0, high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            let token = tokens[middle]
            if token.line < line || token.line == line && token.column < column { low = middle + 1 } else { high = middle }
        }
        return low < tokens.count ? low : nil
    }

    /// The index of the bracket that closes the one at `open`, or `nil` if the file ends first.
    func matchingClose(_ open: Int) -> Int? {
        let pairs = ["{": "}", "(": ")", "[": "]"]
        guard let closer = pairs[tokens[open].text], tokens[open].kind == .punctuation else { return nil }
        let opener = tokens[open].text
        var depth = 0
        for index in open..<tokens.count where tokens[index].kind == .punctuation {
            if tokens[index].text == opener {
                depth += 1
            } else if tokens[index].text == closer {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The tokens strictly between the braces of the body of the function or initializer whose name is
    /// at the given position; `nil` when it has no body (a protocol requirement) or cannot be found.
    func functionBody(line: Int, column: Int) -> Range<Int>? {
        guard let nameIndex = tokenIndex(line: line, column: column) else { return nil }
        var index = nameIndex + 1  // the name may be `init`, itself a declaration keyword
        // A generic clause may declare values (`<let count: Int>`), whose `let` starts no member; an
        // operator's name (`<<`) is followed by more of its characters, never by a clause.
        var generic = index
        if tokens[nameIndex].isIdentifier("init"), generic < tokens.count, tokens[generic].isPunctuation("?") || tokens[generic].isPunctuation("!") {
            generic += 1
        }
        if tokens[nameIndex].kind == .identifier, generic < tokens.count, tokens[generic].isPunctuation("<"), let close = closingAngle(generic) {
            index = close + 1
        }
        // Parameter lists and generic clauses may contain braces (closure default values), so skip
        // bracketed groups; the first `{` outside them opens the body.
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("(") || token.isPunctuation("[") {
                guard let close = matchingClose(index) else { return nil }
                index = close + 1
                continue
            }
            if token.isPunctuation("{") {
                guard let close = matchingClose(index) else { return nil }
                return (index + 1)..<close
            }
            // A declaration that reaches the next member without a body is a requirement.
            if token.isPunctuation("}") || token.isPunctuation(";")
                || token.kind == .identifier && Self.declarationKeywords.contains(token.text) {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// The token that names the property `name` in a `var` or `let` declared directly in the body of
    /// the type whose name is at the given position (not in a nested type, an accessor or a closure);
    /// `nil` when the body declares no such property.
    ///
    /// The audit asks this for `private` and `fileprivate` members, to which the symbol graph gives no
    /// location (the compiler records source locations only for declarations visible outside their
    /// file). Looking in the type's own body is enough for what the audit reports there: a stored
    /// property can only be declared in it, never in an extension.
    func propertyName(_ name: String, inTypeNamedAt line: Int, column: Int) -> SourceToken? {
        guard let typeIndex = tokenIndex(line: line, column: column) else { return nil }
        // The body is the first `{` after the name: generic and inheritance clauses hold none outside
        // brackets.
        var index = typeIndex + 1
        while index < tokens.count, !tokens[index].isPunctuation("{") {
            if tokens[index].isPunctuation("(") || tokens[index].isPunctuation("[") {
                guard let close = matchingClose(index) else { return nil }
                index = close
            }
            index += 1
        }
        guard index < tokens.count, let end = matchingClose(index) else { return nil }
        index += 1
        // Whether the tokens since the last `var`/`let` of the body are still that declaration, where a
        // `,` starts the next binding (`private var a = 0, b = 1`).
        var inBindings = false
        while index < end {
            let token = tokens[index]
            if token.isPunctuation("{") || token.isPunctuation("(") || token.isPunctuation("[") {
                // Accessors, observers, initial values and nested types: nothing declared there is
                // the type's own property.
                guard let close = matchingClose(index) else { return nil }
                index = close + 1
                continue
            }
            let next = index + 1 < end ? tokens[index + 1] : nil
            if token.isIdentifier("var") || token.isIdentifier("let") {
                if next?.isIdentifier(name) == true { return next }
                inBindings = true
            } else if inBindings, token.isPunctuation(","), next?.isIdentifier(name) == true {
                return next
            } else if token.isPunctuation(";") || token.kind == .identifier && Self.declarationKeywords.contains(token.text) {
                inBindings = false
            }
            index += 1
        }
        return nil
    }

    /// How a property whose name is at the given position stores its value.
    func propertyStorage(line: Int, column: Int) -> PropertyStorage {
        guard let nameIndex = tokenIndex(line: line, column: column) else { return .unknown }
        var index = nameIndex + 1
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("(") || token.isPunctuation("[") {
                guard let close = matchingClose(index) else { return .unknown }
                index = close + 1
                continue
            }
            if token.isPunctuation("=") { return .stored }
            if token.isPunctuation("{") {
                // `{ willSet … }` / `{ didSet … }` are observers of stored storage; anything else
                // (`get`, `set`, `_read`, or an expression) is a computed property.
                let first = index + 1 < tokens.count ? tokens[index + 1] : nil
                return first.map { $0.isIdentifier("willSet") || $0.isIdentifier("didSet") } == true ? .stored : .computed
            }
            // The declaration ended (next line, `;`, `,` of a multi-binding, or the type's `}`)
            // without an accessor block: plain stored storage.
            if token.line != tokens[index - 1].line || token.isPunctuation(";") || token.isPunctuation("}")
                || token.isPunctuation(",") {
                return .stored
            }
            index += 1
        }
        return .stored
    }

    /// Whether the declaration on `line` (0-based) carries the suppression marker on that line or in a
    /// comment on the line right above it.
    func isSuppressed(line: Int) -> Bool {
        comments.contains { ($0.line == line || $0.line == line - 1) && $0.text.contains(Self.suppressionMarker) }
    }

    /// Whether any of `names` occurs as an identifier in the token range (not in comments or strings).
    func containsIdentifier(in range: Range<Int>, anyOf names: Set<String>) -> Bool {
        tokens[range].contains { $0.kind == .identifier && names.contains($0.text) }
    }
}

/// How a property keeps its value, as far as the source shows.
enum PropertyStorage: Equatable, Sendable {
    /// Backed by storage in the instance: plain, `lazy`, `weak`, or with `willSet`/`didSet` observers.
    case stored
    /// Computes its value in accessors; it has no storage of its own to protect.
    case computed
    /// The declaration was not found in the source (the file was not readable).
    case unknown
}
