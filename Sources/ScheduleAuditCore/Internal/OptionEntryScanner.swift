/// An entry of an include or exclude list of `ConfinementOptions`, as written in source.
struct OptionEntry: Equatable, Sendable {
    enum List: String, Sendable {
        case include
        case exclude
    }

    enum Member: Equatable, Sendable {
        /// `.method("name(label:)")`: the name as `#function` spells it.
        case method(String)
        /// `.property(\Root.name)` or `.property(\.name)`: the key path's components after the root.
        case property(String)
    }

    var member: Member
    var list: List
    /// The type the entry belongs to, as a dotted path (`Outer.Inner`), when the source shows it.
    var typePath: String?
    var path: String
    var line: Int
    var column: Int
}

/// A `.including(where:)` / `.excluding(where:)` predicate: the audit cannot evaluate it, so it only
/// records that the type's checked set is decided at run time.
struct OptionPredicateUse: Equatable, Sendable {
    var typePath: String?
    var line: Int
}

/// A type declaration or extension body in one file, used to attribute option entries to a type.
struct TypeScope: Equatable, Sendable {
    var typePath: String
    /// Token indices of the braces that delimit the body.
    var open: Int
    var close: Int
}

/// Finds the option entries written as literals in one file.
///
/// Recognised forms (anything else is invisible to the audit, and documented as such):
/// - `.include(…)`, `.exclude(…)`, `.including(…)`, `.excluding(…)` calls (on
///   `ConfinementOptions` or written with a leading dot) whose arguments are literal
///   `.method("…")` and `.property(\Type.name)` / `.property(\.name)` members;
/// - the type an entry belongs to is, in order: the root of an explicit key path in the same call;
///   the `T` of a `ConfinementOptions<T>` or `ConfinedMember<T>` written earlier in the same
///   statement; the type (or extension) whose body contains the call.
struct OptionEntryScanner {
    private static let listCalls: [String: OptionEntry.List] = [
        "include": .include, "including": .include, "exclude": .exclude, "excluding": .exclude,
    ]
    private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "extension", "protocol"]
    private static let nonTypeFollowers: Set<String> = [
        "func", "var", "let", "subscript", "init", "static", "final", "override", "private", "fileprivate",
        "internal", "public", "open", "nonisolated",
    ]

    let file: SourceFile
    private(set) var scopes: [TypeScope] = []
    private(set) var entries: [OptionEntry] = []
    private(set) var predicates: [OptionPredicateUse] = []

    init(file: SourceFile) {
        self.file = file
        scopes = findScopes()
        scanCalls()
    }

    private var tokens: [SourceToken] { file.tokens }

    /// Type and extension bodies with their dotted paths; nested declarations extend the outer path,
    /// extensions name their full path themselves.
    private func findScopes() -> [TypeScope] {
        var found: [TypeScope] = []
        var stack: [TypeScope] = []
        var index = 0
        while index + 1 < tokens.count {
            defer { index += 1 }
            while let last = stack.last, last.close < index { stack.removeLast() }
            let token = tokens[index]
            guard token.kind == .identifier, Self.typeKeywords.contains(token.text),
                  tokens[index + 1].kind == .identifier, !Self.nonTypeFollowers.contains(tokens[index + 1].text),
                  index == 0 || !tokens[index - 1].isIdentifier("import")
            else { continue }
            var components = [tokens[index + 1].text]
            var cursor = index + 2
            if token.text == "extension" {
                while cursor + 1 < tokens.count, tokens[cursor].isPunctuation("."), tokens[cursor + 1].kind == .identifier {
                    components.append(tokens[cursor + 1].text)
                    cursor += 2
                }
            }
            // The body is the first `{` outside brackets (generic clauses use `<>`, never braces).
            while cursor < tokens.count, !tokens[cursor].isPunctuation("{"), !tokens[cursor].isPunctuation(";") {
                if tokens[cursor].isPunctuation("(") || tokens[cursor].isPunctuation("["),
                   let close = file.matchingClose(cursor) {
                    cursor = close
                }
                cursor += 1
            }
            guard cursor < tokens.count, tokens[cursor].isPunctuation("{"), let close = file.matchingClose(cursor) else {
                continue
            }
            let path: String
            if token.text == "extension" || stack.isEmpty {
                path = components.joined(separator: ".")
            } else {
                path = stack[stack.count - 1].typePath + "." + components.joined(separator: ".")
            }
            let scope = TypeScope(typePath: path, open: cursor, close: close)
            found.append(scope)
            stack.append(scope)
        }
        return found
    }

    private func innermostScope(containing index: Int) -> TypeScope? {
        scopes.last { $0.open < index && index < $0.close }
    }

    private mutating func scanCalls() {
        var index = 0
        while index + 2 < tokens.count {
            defer { index += 1 }
            guard tokens[index].isPunctuation("."), tokens[index + 1].kind == .identifier,
                  let list = Self.listCalls[tokens[index + 1].text], tokens[index + 2].isPunctuation("("),
                  let close = file.matchingClose(index + 2)
            else { continue }
            let arguments = (index + 3)..<close
            if arguments.count >= 2, tokens[arguments.lowerBound].isIdentifier("where"),
               tokens[arguments.lowerBound + 1].isPunctuation(":") {
                predicates.append(OptionPredicateUse(typePath: attributedType(callAt: index, explicitRoot: nil), line: tokens[index].line))
                continue
            }
            var callEntries: [(member: OptionEntry.Member, root: String?, token: SourceToken)] = []
            var cursor = arguments.lowerBound
            while cursor + 3 < arguments.upperBound {
                defer { cursor += 1 }
                guard tokens[cursor].isPunctuation("."), tokens[cursor + 2].isPunctuation("(") else { continue }
                if tokens[cursor + 1].isIdentifier("method"), tokens[cursor + 3].kind == .string {
                    callEntries.append((.method(tokens[cursor + 3].text), nil, tokens[cursor + 3]))
                } else if tokens[cursor + 1].isIdentifier("property"), tokens[cursor + 3].isPunctuation("\\"),
                          let keyPath = readKeyPath(from: cursor + 4, end: arguments.upperBound) {
                    callEntries.append((.property(keyPath.member), keyPath.root, keyPath.memberToken))
                }
            }
            let explicitRoot = callEntries.lazy.compactMap(\.root).first
            let typePath = attributedType(callAt: index, explicitRoot: explicitRoot)
            for entry in callEntries {
                entries.append(OptionEntry(
                    member: entry.member, list: list, typePath: entry.root ?? typePath,
                    path: file.path, line: entry.token.line, column: entry.token.column
                ))
            }
        }
    }

    /// Reads `Root.Path.member` or `.member` after a key path's backslash.
    private func readKeyPath(from start: Int, end: Int) -> (root: String?, member: String, memberToken: SourceToken)? {
        var components: [SourceToken] = []
        var cursor = start
        let hasLeadingDot = cursor < end && tokens[cursor].isPunctuation(".")
        if hasLeadingDot { cursor += 1 }
        while cursor < end, tokens[cursor].kind == .identifier {
            components.append(tokens[cursor])
            guard cursor + 2 < end, tokens[cursor + 1].isPunctuation("."), tokens[cursor + 2].kind == .identifier else { break }
            cursor += 2
        }
        guard let member = components.last else { return nil }
        if hasLeadingDot {
            // `\.a.b` names `a` of the inferred root; a deeper component is not a member of the type.
            return (nil, components[0].text, components[0])
        }
        guard components.count >= 2 else { return nil }
        return (components.dropLast().map(\.text).joined(separator: "."), member.text, member)
    }

    private func attributedType(callAt index: Int, explicitRoot: String?) -> String? {
        if let explicitRoot { return explicitRoot }
        // Walk back to the start of the statement; the declaration keyword is included so that
        // `let options: ConfinementOptions<Uploader> = .exclude(…)` is read.
        var start = index
        while start > 0 {
            let previous = tokens[start - 1]
            if previous.isPunctuation("{") || previous.isPunctuation("}") || previous.isPunctuation(";") { break }
            start -= 1
            if previous.isIdentifier("let") || previous.isIdentifier("var") { break }
        }
        var cursor = start
        while cursor + 2 < index {
            defer { cursor += 1 }
            guard tokens[cursor].isIdentifier("ConfinementOptions") || tokens[cursor].isIdentifier("ConfinedMember"),
                  tokens[cursor + 1].isPunctuation("<"), tokens[cursor + 2].kind == .identifier
            else { continue }
            var path = [tokens[cursor + 2].text]
            var next = cursor + 3
            while next + 1 < index, tokens[next].isPunctuation("."), tokens[next + 1].kind == .identifier {
                path.append(tokens[next + 1].text)
                next += 2
            }
            return path.joined(separator: ".")
        }
        return innermostScope(containing: index)?.typePath
    }
}
