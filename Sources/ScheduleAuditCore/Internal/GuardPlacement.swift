/// Where a statement put first in a body (`adopt`'s guard) leaves the body valid Swift.
///
/// A body that returned its one expression implicitly needs `return` before that expression once a
/// statement precedes it; a result-builder body would take the statement as one of its components,
/// so it gets none. The scan decides from the tokens alone (no parser: the library takes no package
/// dependencies); where it cannot be sure the body is one expression, it refuses rather than guess,
/// so a wrong answer is a note, never code that does not compile.
enum GuardPlacement: Equatable, Sendable {
    /// Statements: the guard goes first and nothing else changes.
    case first
    /// One expression returned implicitly: the guard goes first and `return ` before each of these
    /// tokens (one per `#if` branch).
    case firstWithReturn(before: [Int])
    /// No statement can go first without changing what the body means; the reason, for a note.
    case refused(String)
}

extension SourceFile {
    /// Control-flow words whose first `{` outside brackets opens a block of the same function (not a
    /// closure): Swift accepts no trailing closure in their conditions.
    static let blockKeywords: Set<String> = [
        "if", "else", "guard", "while", "for", "switch", "do", "catch", "repeat", "defer",
    ]
    /// Words that start a statement which is not an expression (with `if`/`switch` handled apart).
    private static let statementStarters: Set<String> = [
        "do", "for", "while", "repeat", "guard", "let", "var", "defer", "throw", "return", "func", "class",
        "struct", "enum", "typealias", "break", "continue", "fallthrough",
    ]
    /// Calls that never return: a body that ends with one needs no `return`.
    private static let neverReturning: Set<String> = ["fatalError", "preconditionFailure", "throw", "exit", "abort"]
    /// Words after which an expression goes on (`a as B`, `x is Y`, `} catch`, `} else`).
    private static let continuingWords: Set<String> = ["as", "is", "else", "catch", "in", "where", "throws", "rethrows"]
    /// Words after which an expression has not ended (`try`, `await`, `return`, `in`).
    private static let operandAwaitingWords: Set<String> = [
        "try", "await", "as", "is", "in", "where", "return", "throw", "some", "any", "inout", "case",
        "guard", "if", "while", "switch",
    ]

    /// How to put a statement first in the body of `member`, a function or a computed property's
    /// getter.
    func guardPlacement(of member: MemberDeclaration) -> GuardPlacement {
        guard let body = member.body ?? getterBody(of: member) else { return .first }
        if let builder = member.attributes.first(where: { $0.hasSuffix("Builder") }) {
            return .refused("its body is built by @\(builder): a statement put first would be one of its components")
        }
        guard returnsValue(member, before: body.open) else { return .first }
        guard body.open + 1 < body.close, !hasBlockLevelReturn(in: (body.open + 1)..<body.close) else { return .first }
        var insertions: [Int] = []
        for branch in directiveBranches(in: (body.open + 1)..<body.close) {
            let statements = statementStarts(in: branch)
            guard let first = statements.first else { continue }
            let head = tokens[first]
            if let last = statements.last, tokens[last].kind == .identifier, Self.neverReturning.contains(tokens[last].text) {
                continue  // ends in a call that never returns: nothing is returned implicitly
            }
            if statements.count > 1 {
                return .refused("its body returns a value with no 'return' over several statements (a result builder?): a statement put first would change what it builds")
            }
            // A statement that starts with `.` is an implicit member expression (`.here(member)`).
            if head.kind == .identifier && Self.statementStarters.contains(head.text) {
                return .refused("the scan cannot tell whether its body's one statement '\(head.text)' is an expression; add the guard by hand")
            }
            insertions.append(first)
        }
        return insertions.isEmpty ? .first : .firstWithReturn(before: insertions)
    }

    /// The braces of a computed property's getter: the accessor block itself, or its `get { … }`.
    private func getterBody(of member: MemberDeclaration) -> (open: Int, close: Int)? {
        guard member.kind == .variable, let open = member.computedAccessors, let close = matchingClose(open) else { return nil }
        var index = open + 1
        var sawAccessor = false
        while index < close {
            let token = tokens[index]
            if token.isPunctuation("@"), index + 1 < close { index += 2; continue }  // `@inlinable get`
            if token.kind == .identifier, ["get", "set", "_read", "_modify", "mutating", "nonmutating", "async", "throws"].contains(token.text) {
                sawAccessor = true
                if token.text == "get" {
                    var brace = index + 1
                    while brace < close, !tokens[brace].isPunctuation("{") {
                        if tokens[brace].isPunctuation("("), let group = matchingClose(brace) { brace = group }  // `throws(E)`
                        brace += 1
                    }
                    if brace < close, let end = matchingClose(brace) { return (brace, end) }
                    return nil
                }
                index += 1
                if index < close, tokens[index].isPunctuation("{"), let group = matchingClose(index) { index = group + 1 }
                continue
            }
            break
        }
        return sawAccessor ? nil : (open, close)
    }

    /// Whether the declaration's result is a value: a `->` (or a property's type) that is not `Void`,
    /// `()` or `Never`.
    private func returnsValue(_ member: MemberDeclaration, before open: Int) -> Bool {
        var index = (member.nameToken ?? member.keyword) + 1
        var result: Int?
        while index + 1 < open, result == nil {
            if tokens[index].isPunctuation("(") || tokens[index].isPunctuation("["), let close = matchingClose(index) {
                index = close + 1
                continue
            }
            if member.kind == .variable, tokens[index].isPunctuation(":") { result = index + 1 }
            if tokens[index].isPunctuation("-"), tokens[index + 1].isPunctuation(">") { result = index + 2 }
            index += 1
        }
        guard let result, result < open else { return false }
        let type = tokens[result]
        return !(type.isIdentifier("Void") || type.isIdentifier("Never")
            || type.isPunctuation("(") && result + 1 < open && tokens[result + 1].isPunctuation(")"))
    }

    /// Whether a `return` in the range belongs to the function itself: one at the top level or in a
    /// control-flow block, not one inside a closure or a nested function.
    func hasBlockLevelReturn(in range: Range<Int>) -> Bool {
        var index = range.lowerBound
        var blockPending = false
        while index < range.upperBound {
            let token = tokens[index]
            if token.isIdentifier("return") { return true }
            if token.kind == .identifier, Self.blockKeywords.contains(token.text) { blockPending = true }
            if token.kind == .punctuation, ["(", "[", "{"].contains(token.text), let close = matchingClose(index) {
                if token.text == "{", blockPending {
                    if hasBlockLevelReturn(in: (index + 1)..<close) { return true }
                    blockPending = false
                }
                index = close + 1
                continue
            }
            index += 1
        }
        return false
    }

    /// The range split at `#if`, `#elseif`, `#else` and `#endif` lines into the runs of tokens between
    /// them (one run when there is none); a directive's condition is the rest of its line.
    private func directiveBranches(in range: Range<Int>) -> [Range<Int>] {
        var branches: [Range<Int>] = []
        var start = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.kind == .punctuation, ["(", "[", "{"].contains(token.text), let close = matchingClose(index) {
                index = close + 1
                continue
            }
            if token.kind == .identifier, ["#if", "#elseif", "#else", "#endif"].contains(token.text) {
                if start < index { branches.append(start..<index) }
                index += 1
                if token.text == "#if" || token.text == "#elseif" {
                    while index < range.upperBound, tokens[index].line == token.line { index += 1 }
                }
                start = index
                continue
            }
            index += 1
        }
        if start < range.upperBound { branches.append(start..<range.upperBound) }
        return branches
    }

    /// The first token of each statement in a run of top-level tokens: a new statement starts after a
    /// `;`, or on a new line unless the line before ends with an operator, or this one starts with one
    /// (`.member`, `+ x`, `?? y`) or a continuing word (`else`, `catch`, `as`).
    func statementStarts(in range: Range<Int>) -> [Int] {
        var starts: [Int] = []
        var previous: Int?
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.isPunctuation(";") {
                previous = nil
                index += 1
                continue
            }
            if let before = previous {
                if tokens[before].endLine < token.line, !continues(after: before, into: index) { starts.append(index) }
            } else {
                starts.append(index)
            }
            // A bracketed group is part of its statement; a group ends where its closer is.
            if token.kind == .punctuation, ["(", "[", "{"].contains(token.text), let close = matchingClose(index) {
                previous = close
                index = close + 1
                continue
            }
            previous = index
            index += 1
        }
        return starts
    }

    /// Whether the token at `next`, first on its line, goes on with the expression that ends at `last`.
    private func continues(after last: Int, into next: Int) -> Bool {
        let end = tokens[last], start = tokens[next]
        // A word after `.` is a member's name (`.throw`, `.if`), no keyword.
        let member = last > 0 && tokens[last - 1].isPunctuation(".")
        // A directive's line is a statement of its own, even after `return` (`return` `#endif`).
        if start.kind == .identifier && ["#if", "#elseif", "#else", "#endif"].contains(start.text) { return false }
        if end.kind == .identifier && Self.operandAwaitingWords.contains(end.text) && !member { return true }
        if start.kind == .identifier && Self.continuingWords.contains(start.text) { return true }
        // An attribute's line goes on with what it marks (`@MainActor` over a local `class`).
        if endsAttribute(last) { return true }
        // A `>` alone on its line closes generic arguments written over lines (`Either<`, `A,`, `B`, `>`).
        if end.isPunctuation(">"), last > 0, tokens[last - 1].endLine < end.line { return false }
        if end.kind == .punctuation, !["(", ")", "]", "}"].contains(end.text) {
            // An operator at a line's end that touches its operand but not what follows is postfix
            // (`x!`, `y?`, the `>` of `Result<T, E>`), and the statement ends; other operators go on, and
            // so does a `<` that opens generic arguments (`Producer<` with its arguments below).
            var first = last
            while first > 0, tokens[first - 1].kind == .punctuation, touches(first - 1, first),
                !["(", ")", "]", "}", ",", ":"].contains(tokens[first - 1].text) {
                first -= 1
            }
            let operand = first > 0 && (tokens[first - 1].kind != .punctuation || [")", "]", "}"].contains(tokens[first - 1].text))
            let postfix = ![",", ":", ".", "<"].contains(end.text) && operand && touches(first - 1, first)
            if !postfix { return true }
        }
        // A `{` first on its line goes on: the block of a control statement whose condition spans
        // lines, or a trailing closure.
        if start.isPunctuation("{") { return true }
        if start.kind == .punctuation, start.text != "(", start.text != "[", start.text != "{" {
            // `.member` goes on; a binary operator has space after it; `!x`, `-x` (touching) start one.
            if start.text == "." { return true }
            if start.text == "#" || start.text == "@" { return false }
            return next + 1 >= tokens.count || !touches(next, next + 1) || tokens[next + 1].kind == .punctuation
        }
        return false
    }

    /// Whether the token at `last` ends an attribute: `@Name`, or the `)` of `@Name(…)`.
    private func endsAttribute(_ last: Int) -> Bool {
        var name = last
        if tokens[last].isPunctuation(")") {
            var depth = 0
            var index = last
            while index >= 0 {
                if tokens[index].isPunctuation(")") { depth += 1 }
                if tokens[index].isPunctuation("(") { depth -= 1 }
                if depth == 0 { break }
                index -= 1
            }
            name = index - 1
        }
        return name > 0 && tokens[name].kind == .identifier && tokens[name - 1].isPunctuation("@")
    }

    /// Whether the token at `second` starts where the one at `first` ends (no space between them).
    func touches(_ first: Int, _ second: Int) -> Bool {
        let a = tokens[first], b = tokens[second]
        return a.line == b.line && a.kind == .punctuation && a.column + a.text.utf8.count == b.column
            || a.line == b.line && a.kind == .identifier && a.column + a.text.utf8.count == b.column
    }

    /// Calls that run a closure on a queue: a body that is one of them hops.
    private static let hopCalls: Set<String> = ["sync", "async", "asyncAndWait"]

    /// The queue a method's body hops onto, when the body is one call `queue.sync { … }` (or `async`,
    /// `asyncAndWait`, `sync(execute:)`), maybe after `return`, `try` or `await`: such a method is an
    /// entry point, whose own code runs outside the owner and whose closure runs inside it.
    func hop(of member: MemberDeclaration) -> (receiver: String, call: String)? {
        guard let body = member.body, body.open + 1 < body.close else { return nil }
        let statements = statementStarts(in: (body.open + 1)..<body.close)
        guard statements.count == 1 else { return nil }
        var index = body.open + 1
        while index < body.close, ["return", "try", "await"].contains(tokens[index].text), tokens[index].kind == .identifier {
            index += 1
            if index < body.close, tokens[index].isPunctuation("?") || tokens[index].isPunctuation("!") { index += 1 }
        }
        var receiver: [String] = []
        while index + 1 < body.close, tokens[index].kind == .identifier, tokens[index + 1].isPunctuation(".") {
            receiver.append(tokens[index].text)
            index += 2
        }
        guard !receiver.isEmpty, index + 1 < body.close, tokens[index].kind == .identifier, Self.hopCalls.contains(tokens[index].text),
            tokens[index + 1].isPunctuation("{") || tokens[index + 1].isPunctuation("("),
            let close = matchingClose(index + 1)
        else { return nil }
        // The call, with its trailing closure, is the whole statement.
        var end = close + 1
        if tokens[index + 1].isPunctuation("("), end < body.close, tokens[end].isPunctuation("{"), let trailing = matchingClose(end) {
            end = trailing + 1
        }
        return end == body.close ? (receiver.joined(separator: "."), tokens[index].text) : nil
    }
}
