/// One member declared directly in a type's body, as a token scan sees it (`adopt` and `claims`).
struct MemberDeclaration: Equatable, Sendable {
    /// What the keyword declares.
    enum Kind: Equatable, Sendable {
        case variable, constant, function, initializer, deinitializer, `subscript`, nestedType, other
    }

    var kind: Kind
    /// The first token: its first attribute or modifier, else its keyword.
    var start: Int
    var keyword: Int
    /// The name's token (`nil` for `init`, `deinit`, `subscript`, a tuple pattern).
    var nameToken: Int?
    /// Attribute names without `@` (`Confined`, `MainActor`).
    var attributes: [String]
    /// Modifiers as written, with their argument (`private(set)`, `nonisolated(unsafe)`).
    var modifiers: [String]
    /// One past the last token.
    var end: Int
    /// For a `var`/`let`: the accessor block's `{`, when it is not an observer block.
    var computedAccessors: Int?
    /// For a `var`/`let`: a `,` at the top level, so the statement declares several variables.
    var declaresSeveral: Bool
    /// For a function, initializer or subscript: the body's `{` and `}`.
    var body: (open: Int, close: Int)?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.start == rhs.start && lhs.end == rhs.end && lhs.kind == rhs.kind
    }

    /// Whether the member belongs to the type rather than to an instance.
    var isTypeMember: Bool { modifiers.contains("static") || modifiers.contains("class") }
    /// Whether only the type's own file (or body) can reach the member.
    var isPrivate: Bool { modifiers.contains("private") || modifiers.contains("fileprivate") }
}

extension SourceFile {
    /// Modifiers a member declaration may start with (besides attributes).
    static let memberModifiers: Set<String> = [
        "private", "fileprivate", "internal", "public", "open", "package", "final", "static", "class", "lazy",
        "weak", "unowned", "override", "nonisolated", "dynamic", "required", "convenience", "mutating",
        "nonmutating", "optional", "indirect", "isolated", "distributed", "prefix", "postfix", "infix",
        "borrowing", "consuming", "__consuming", "_const",
    ]
    private static let memberKeywords: [String: MemberDeclaration.Kind] = [
        "var": .variable, "let": .constant, "func": .function, "init": .initializer, "deinit": .deinitializer,
        "subscript": .subscript, "class": .nestedType, "struct": .nestedType, "enum": .nestedType,
        "actor": .nestedType, "protocol": .nestedType, "typealias": .other, "associatedtype": .other,
        "case": .other,
    ]

    /// The compilation directives: every other `#word` in a body is a freestanding macro.
    static let directives: Set<String> = ["#if", "#elseif", "#else", "#endif"]

    /// The members declared directly in the body between `open` and `close` (the braces), in order;
    /// members of nested types, accessors and closures are not listed. `#if` directives are passed over:
    /// members of every branch are listed.
    func members(open: Int, close: Int) -> [MemberDeclaration] {
        var found: [MemberDeclaration] = []
        var index = open + 1
        while index < close {
            let token = tokens[index]
            if token.isIdentifier("#if"), attributeDirectiveEnd(index, close: close) != nil {
                // `#if … @Attribute #endif` before a declaration: its attributes, not a group of members.
                let member = member(at: index, close: close)
                found.append(member)
                index = max(member.end, index + 1)
                continue
            }
            if token.kind == .identifier, Self.directives.contains(token.text) {
                // A compilation directive and its condition, which ends with the line. Any other `#word`
                // is a freestanding macro (`#error("…")`, `#Preview { … }`): a member.
                let line = token.line
                index += 1
                while index < close, tokens[index].line == line { index += 1 }
                continue
            }
            if token.isPunctuation(";") {
                index += 1
                continue
            }
            let member = member(at: index, close: close)
            found.append(member)
            index = max(member.end, index + 1)
        }
        return found
    }

    /// One past the modifier at `index` and its argument (`private(set)`, `nonisolated(unsafe)`), or
    /// `nil` when no modifier is there. Modifiers come in any order, so every scan that passes over
    /// them asks this.
    func modifierEnd(at index: Int) -> Int? {
        guard index < tokens.count, tokens[index].kind == .identifier, Self.memberModifiers.contains(tokens[index].text) else { return nil }
        if index + 1 < tokens.count, tokens[index + 1].isPunctuation("("), let group = matchingClose(index + 1) { return group + 1 }
        return index + 1
    }

    private func member(at start: Int, close: Int) -> MemberDeclaration {
        var index = start
        var attributes: [String] = []
        var modifiers: [String] = []
        while index < close {
            let token = tokens[index]
            if token.isIdentifier("#if"), let end = attributeDirectiveEnd(index, close: close) {
                // Every clause's attributes are the declaration's, as `#if` members are the type's.
                var inner = index
                while inner < end {
                    if tokens[inner].isPunctuation("@"), inner + 1 < end { attributes.append(tokens[inner + 1].text) }
                    inner += 1
                }
                index = end
                continue
            }
            if token.isPunctuation("@"), index + 1 < close {
                attributes.append(tokens[index + 1].text)
                index += 2
                // A generic attribute's arguments touch its name (`@ParserBuilder<Input>`).
                if index < close, tokens[index].isPunctuation("<"), tokens[index].line == tokens[index - 1].line,
                    tokens[index].column == tokens[index - 1].column + tokens[index - 1].text.utf8.count,
                    let angle = closingAngle(index) {
                    index = angle + 1
                }
                if index < close, tokens[index].isPunctuation("("), let group = matchingClose(index) { index = group + 1 }
                continue
            }
            // `class` is a modifier only before another modifier or a member keyword.
            if token.kind == .identifier, Self.memberModifiers.contains(token.text),
                token.text != "class" || index + 1 < close && Self.declarationStarters.contains(tokens[index + 1].text) {
                var written = token.text
                index += 1
                if index < close, tokens[index].isPunctuation("("), let group = matchingClose(index) {
                    written += "(" + tokens[(index + 1)..<group].map(\.text).joined() + ")"
                    index = group + 1
                }
                modifiers.append(written)
                continue
            }
            break
        }
        let keyword = index
        let kind = index < close && tokens[index].kind == .identifier ? Self.memberKeywords[tokens[index].text] ?? .other : .other
        var member = MemberDeclaration(
            kind: kind, start: start, keyword: keyword, nameToken: nil, attributes: attributes, modifiers: modifiers,
            end: keyword + 1, computedAccessors: nil, declaresSeveral: false, body: nil
        )
        switch kind {
        case .nestedType:
            member.nameToken = keyword + 1
            member.end = typeDeclaration(at: keyword, parents: []).map { $0.closeBrace + 1 }
                ?? endOfStatement(after: keyword, close: close)
        case .function, .initializer, .deinitializer, .subscript:
            if kind == .function, keyword + 1 < close { member.nameToken = keyword + 1 }
            let from = tokens[member.nameToken ?? keyword]
            if let body = functionBody(line: from.line, column: from.column), body.upperBound <= close {
                member.body = (body.lowerBound - 1, body.upperBound)
                member.end = body.upperBound + 1
            } else {
                member.end = endOfStatement(after: keyword, close: close)
            }
        case .variable, .constant:
            if keyword + 1 < close, tokens[keyword + 1].kind == .identifier { member.nameToken = keyword + 1 }
            scanBinding(&member, close: close)
        case .other:
            member.end = endOfStatement(after: keyword, close: close)
        }
        return member
    }

    /// One past the `#endif` of the `#if` at `index` when its clauses hold attributes only (`#if
    /// DEBUG` `@Confined` `#endif` before a `var`), nested `#if`s included; `nil` for any other `#if`.
    func attributeDirectiveEnd(_ index: Int, close: Int) -> Int? {
        var depth = 0
        var position = index
        var sawAttribute = false
        while position < close {
            let token = tokens[position]
            if token.isIdentifier("#if") || token.isIdentifier("#elseif") || token.isIdentifier("#else") || token.isIdentifier("#endif") {
                depth += token.text == "#if" ? 1 : token.text == "#endif" ? -1 : 0
                position += 1
                if token.text == "#if" || token.text == "#elseif" {
                    while position < close, tokens[position].line == token.line { position += 1 }  // the condition
                }
                if depth == 0 { return sawAttribute ? position : nil }
                continue
            }
            guard token.isPunctuation("@"), position + 1 < close, tokens[position + 1].kind == .identifier else { return nil }
            sawAttribute = true
            position += 2
            if position < close, tokens[position].isPunctuation("("), tokens[position].line == tokens[position - 1].line,
                let group = matchingClose(position) {
                position = group + 1
            }
        }
        return nil
    }

    /// Finds where a `var`/`let` ends, whether its `{` block is accessors, and whether it binds several.
    private func scanBinding(_ member: inout MemberDeclaration, close: Int) {
        var index = member.keyword + 1
        var sawInitializer = false
        while index < close {
            let token = tokens[index]
            if index > member.keyword + 1, startsMember(index) { break }
            if token.isPunctuation(";") { break }
            if token.isPunctuation("=") { sawInitializer = true }
            // Generic arguments of the annotation (`Result<T, E>`) hold commas that bind nothing; past
            // the `=`, a `<` may be an operator.
            // A `<` that touches the name before it opens generic arguments past the `=` too
            // (`= Box<Int, Never>(0)`): a comparison has space on both sides or neither.
            let generic = !sawInitializer || tokens[index - 1].kind == .identifier && tokens[index - 1].line == token.line
                && tokens[index - 1].column + tokens[index - 1].text.utf8.count == token.column
            if token.isPunctuation("<"), generic, let close = closingAngle(index) {
                index = close + 1
                continue
            }
            if token.isPunctuation(",") { member.declaresSeveral = true }
            if token.isPunctuation("{"), !sawInitializer, member.computedAccessors == nil {
                let first = index + 1 < close ? tokens[index + 1] : nil
                if first?.isIdentifier("willSet") != true && first?.isIdentifier("didSet") != true {
                    member.computedAccessors = index
                }
            }
            if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{"),
                let group = matchingClose(index) {
                index = group + 1
                continue
            }
            index += 1
        }
        member.end = index
    }

    /// One past the last token of a declaration without a body of its own: it ends before a `;`, the
    /// body's `}`, or a token on a later line that starts a member.
    private func endOfStatement(after keyword: Int, close: Int) -> Int {
        var index = keyword + 1
        while index < close, !tokens[index].isPunctuation(";"), !startsMember(index) {
            if tokens[index].isPunctuation("(") || tokens[index].isPunctuation("[") || tokens[index].isPunctuation("{"),
                let group = matchingClose(index) {
                index = group + 1
                continue
            }
            index += 1
        }
        return index
    }

    /// Whether the token at `index` begins a new member: the first on its line and an attribute, a
    /// modifier, a member keyword or a directive.
    private func startsMember(_ index: Int) -> Bool {
        let token = tokens[index]
        guard index > 0, tokens[index - 1].line < token.line else { return false }
        // After `:`, `=` or `->` the line goes on with a type or a value (`@convention(c) (…) -> Void`).
        if tokens[index - 1].isPunctuation(":") || tokens[index - 1].isPunctuation("=") || tokens[index - 1].isPunctuation(">")
            && index > 1 && tokens[index - 2].isPunctuation("-") {
            return false
        }
        if token.isPunctuation("@") { return true }
        guard token.kind == .identifier else { return false }
        return Self.memberModifiers.contains(token.text) || Self.memberKeywords[token.text] != nil
            || token.text.hasPrefix("#")
    }
}
