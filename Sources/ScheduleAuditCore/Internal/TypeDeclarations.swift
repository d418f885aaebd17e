/// A type or extension declaration found by scanning a file's tokens (`adopt` and `claims`).
///
/// A scan, not a parse, like the rest of the audit: it finds the keyword, the name, the generic,
/// inheritance and `where` clauses and the body braces. The compiler has accepted the file, so the
/// scan never decides validity; it only has to skip what can contain braces or keywords — comments
/// and strings (the tokenizer drops them) and bracketed groups.
struct TypeDeclaration: Equatable, Sendable {
    /// The declaration's keyword.
    enum Kind: String, Sendable {
        case `class`, `struct`, `enum`, `actor`, `protocol`, `extension`
    }

    var kind: Kind
    /// The simple name; for an extension, the last component of the extended type.
    var name: String
    /// The names of the enclosing types and the name (`Outer.Inner`); for an extension, the extended
    /// type as written.
    var qualifiedName: String
    /// Token indexes of the keyword and of the (last) name token.
    var keyword: Int
    var nameToken: Int
    /// The inheritance clause's tokens, without the `:`; empty when there is none.
    var inheritance: Range<Int>
    /// The last token of the name, generic parameters or inheritance clause: where a new inheritance
    /// entry is appended.
    var headEnd: Int
    /// The body's `{` and `}`.
    var openBrace: Int
    var closeBrace: Int

    /// The names in the inheritance clause, as written (`@unchecked` and `@preconcurrency` attached to
    /// the name they mark: `@unchecked Sendable`; `~Copyable` with its `~`).
    func inheritedNames(in file: SourceFile) -> [String] {
        var names: [String] = []
        var attribute = ""
        var depth = 0
        for index in inheritance {
            let token = file.tokens[index]
            if token.isPunctuation("<") { depth += 1 } else if token.isPunctuation(">") { depth -= 1 }
            guard depth == 0, token.kind == .identifier else { continue }
            if index > inheritance.lowerBound, file.tokens[index - 1].isPunctuation("@") {
                attribute += "@\(token.text) "  // `@retroactive @unchecked Sendable`: both mark it
            } else if index == inheritance.lowerBound || !file.tokens[index - 1].isPunctuation(".") {
                // `~Copyable` suppresses a conformance: it is no conformance to `Copyable`.
                let suppressed = index > inheritance.lowerBound && file.tokens[index - 1].isPunctuation("~")
                names.append(attribute + (suppressed ? "~" : "") + token.text)
                attribute = ""
            } else if let last = names.popLast() {
                names.append("\(last).\(token.text)")  // `Foundation.NSObject`
            }
        }
        return names
    }
}

extension SourceFile {
    private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "protocol", "extension"]

    /// Every type and extension declaration in the file, in source order, nested ones included.
    func typeDeclarations() -> [TypeDeclaration] {
        var found: [TypeDeclaration] = []
        var enclosing: [(name: String, close: Int)] = []
        var index = 0
        while index < tokens.count {
            while let last = enclosing.last, index > last.close { enclosing.removeLast() }
            if let declaration = typeDeclaration(at: index, parents: enclosing.map(\.name)) {
                found.append(declaration)
                // Nested declarations are named from here: an extension's members by the extended type.
                let name = declaration.kind == .extension ? declaration.qualifiedName : declaration.name
                enclosing.append((name, declaration.closeBrace))
                index = declaration.openBrace + 1
                continue
            }
            index += 1
        }
        return found
    }

    /// The declaration whose keyword is at `index`, or `nil` when the token does not start one (`class`
    /// as a modifier, `actor` as a variable name, a `: class` constraint).
    func typeDeclaration(at index: Int, parents: [String]) -> TypeDeclaration? {
        let token = tokens[index]
        guard token.kind == .identifier, let kind = TypeDeclaration.Kind(rawValue: token.text), index + 1 < tokens.count else { return nil }
        // `extension [Row]`, `extension [String: Int]`: sugar names a type too.
        let sugar = kind == .extension && tokens[index + 1].isPunctuation("[") ? matchingClose(index + 1) : nil
        guard sugar != nil || tokens[index + 1].kind == .identifier && !Self.declarationStarters.contains(tokens[index + 1].text)
        else { return nil }
        // `.class`, `P: class`, `import struct M.T`: the keyword, but no declaration. A `:` ending the
        // line before is a `case …:` label, and a local type may follow it.
        if index > 0, tokens[index - 1].isPunctuation(".") || tokens[index - 1].isPunctuation(":") && tokens[index - 1].line == token.line
            || tokens[index - 1].isPunctuation(",") || tokens[index - 1].isIdentifier("import") {
            return nil
        }
        // The name; an extension's may be qualified (`Outer.Inner`).
        var nameEnd = sugar ?? index + 1
        var written = sugar.map { close in
            tokens[(index + 1)...close].map { [":", ","].contains($0.text) && $0.kind == .punctuation ? $0.text + " " : $0.text }.joined()
        } ?? tokens[nameEnd].text
        while kind == .extension, nameEnd + 2 < tokens.count {
            // Generic arguments inside the extended type's name (`Rope<Chunk>.Builder`) are not in it.
            var dot = nameEnd + 1
            if tokens[dot].isPunctuation("<"), let close = closingAngle(dot), close + 2 < tokens.count { dot = close + 1 }
            guard tokens[dot].isPunctuation("."), tokens[dot + 1].kind == .identifier else { break }
            nameEnd = dot + 1
            written += "." + tokens[nameEnd].text
        }
        // `extension Element?`: the optional type, written as sugar, is the name.
        var isSugar = sugar != nil
        if kind == .extension, nameEnd + 1 < tokens.count, tokens[nameEnd + 1].isPunctuation("?") {
            nameEnd += 1
            written += "?"
            isSugar = true
        }
        var cursor = nameEnd + 1
        var headEnd = nameEnd
        if cursor < tokens.count, tokens[cursor].isPunctuation("<"), let close = closingAngle(cursor) {
            headEnd = close
            cursor = close + 1
        }
        // A declaration's name is followed by its generic, inheritance or `where` clause or its body;
        // anything else (`for actor in actors {`) is another use of the word.
        guard cursor < tokens.count, tokens[cursor].isPunctuation(":") || tokens[cursor].isPunctuation("{")
            || tokens[cursor].isIdentifier("where") || headEnd > nameEnd
        else { return nil }
        var inheritance = cursor..<cursor
        if cursor < tokens.count, tokens[cursor].isPunctuation(":") {
            let start = cursor + 1
            cursor = start
            while cursor < tokens.count, !tokens[cursor].isPunctuation("{"), !tokens[cursor].isIdentifier("where") {
                if tokens[cursor].isPunctuation("(") || tokens[cursor].isPunctuation("["),
                    let close = matchingClose(cursor) {
                    cursor = close
                }
                cursor += 1
            }
            inheritance = start..<cursor
            headEnd = max(headEnd, cursor - 1)
        }
        // A `where` clause holds no braces outside brackets; the first `{` opens the body.
        while cursor < tokens.count, !tokens[cursor].isPunctuation("{") {
            if tokens[cursor].isPunctuation(";") || tokens[cursor].isPunctuation("}") { return nil }
            if tokens[cursor].isPunctuation("(") || tokens[cursor].isPunctuation("["), let close = matchingClose(cursor) {
                cursor = close
            }
            cursor += 1
        }
        guard cursor < tokens.count, let close = matchingClose(cursor) else { return nil }
        let qualified = kind == .extension ? written : (parents + [written]).joined(separator: ".")
        return TypeDeclaration(
            kind: kind, name: isSugar ? written : tokens[nameEnd].text, qualifiedName: qualified, keyword: index,
            nameToken: isSugar ? index + 1 : nameEnd,
            inheritance: inheritance, headEnd: headEnd, openBrace: cursor, closeBrace: close
        )
    }

    /// Words that make a preceding `class` a modifier (`class func`, `class override var`).
    static let declarationStarters: Set<String> = [
        "func", "var", "let", "subscript", "init", "deinit", "typealias", "final", "override", "private",
        "fileprivate", "internal", "public", "open", "static", "nonisolated", "dynamic", "required",
        "convenience", "lazy", "weak", "unowned",
    ]

    /// The `>` that closes the generic clause whose `<` is at `open` (`->` never occurs in one).
    func closingAngle(_ open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].isPunctuation("<") {
                depth += 1
            } else if tokens[index].isPunctuation(">") {
                depth -= 1
                if depth == 0 { return index }
            } else if tokens[index].isPunctuation("{") || tokens[index].isPunctuation(";") {
                return nil
            }
        }
        return nil
    }

    /// Whether the file imports `module` (plainly, `@testable`, or `@preconcurrency`).
    func imports(_ module: String) -> Bool {
        tokens.indices.dropLast().contains { tokens[$0].isIdentifier("import") && tokens[$0 + 1].isIdentifier(module) }
    }

    /// The 0-based line after which a new `import` goes: the last `import`'s, or the `#endif` that
    /// closes the `#if` around it (an import added inside would be conditional); `nil` without imports.
    func lastImportLine() -> Int? {
        guard let last = tokens.lastIndex(where: { $0.isIdentifier("import") }) else { return nil }
        var depth = 0
        for index in tokens.indices {
            if tokens[index].isIdentifier("#if") {
                depth += 1
            } else if tokens[index].isIdentifier("#endif") {
                depth -= 1
                if index > last, depth == 0 { return tokens[index].line }
            }
            if index == last, depth == 0 { return tokens[index].line }
        }
        return tokens[last].line
    }

    /// The attributes written before a declaration's keyword (`MainActor` for `@MainActor final class`).
    func attributes(before keyword: Int) -> [String] {
        var names: [String] = []
        var index = keyword - 1
        while index >= 0 {
            if tokens[index].isPunctuation(")"), let open = tokens[..<index].lastIndex(where: { $0.isPunctuation("(") }) {
                index = open - 1  // an attribute's or modifier's arguments: `@available(…)`, `private(set)`
                continue
            }
            guard tokens[index].kind == .identifier else { break }
            if index > 0, tokens[index - 1].isPunctuation("@") {
                names.append(tokens[index].text)
                index -= 2
            } else if Self.memberModifiers.contains(tokens[index].text) {
                index -= 1
            } else {
                break
            }
        }
        return names.reversed()
    }
}
