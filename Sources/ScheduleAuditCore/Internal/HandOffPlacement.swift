/// Where `apply` puts a `handOff(to:)`: as its own statement right after the statement that starts at
/// a line, the one where the run saw an object last used before it moved.
///
/// The scan accepts only a statement that is a call or member access on a plain variable —
/// `article.parse()`, `article.words += 1`, `let n = article.count()` — so that the variable is the
/// object that moved and nothing after the statement on its line is cut off. Anything it cannot be
/// sure of is refused with the reason, and the caller edits nothing for it.
enum HandOffPlacement: Equatable, Sendable {
    /// Insert a hand-off of `receiver` after the 0-based `endLine` (the statement's first token is at
    /// the UTF-8 `column` of the line asked about); `typeNoted` says where the scan found the receiver
    /// declared a variable of the type, or that it found no declaration with a type.
    case after(endLine: Int, receiver: String, column: Int, typeNoted: String)
    case refused(String)
}

extension SourceFile {
    /// Words that are no variable an object can be handed off through.
    private static let notVariables: Set<String> = [
        "self", "super", "Self", "try", "await", "if", "switch", "guard", "for", "while", "do", "defer", "repeat", "case",
        "let", "var", "return", "throw", "break", "continue", "in", "is", "as", "nil", "true", "false", "_",
    ]
    /// Words that start a type's body, or a function's (an accessor's word is right before its `{`).
    private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "extension", "protocol"]
    private static let functionKeywords: Set<String> = ["func", "init", "deinit", "subscript"]
    private static let accessorWords: Set<String> = ["get", "set", "willSet", "didSet", "_read", "_modify"]

    /// Where to hand off the object that the statement at the 0-based `line` last used.
    ///
    /// - Parameters:
    ///   - typeName: The hand-off type (`Article`, `Cache<Int>`): a receiver declared as another type is refused.
    ///   - function: The function the run named for the line (`closure #1 in Fetcher.fetch(_:)`): the
    ///     statement must be as many closures deep in a function of that name.
    func handOffPlacement(line: Int, typeName: String, function: String?) -> HandOffPlacement {
        let shown = line + 1
        guard let first = tokens.firstIndex(where: { $0.line >= line }), tokens[first].line == line else {
            return .refused("line \(shown) holds no code")
        }
        var open: [Int] = []
        for index in 0..<first where tokens[index].kind == .punctuation {
            if ["(", "[", "{"].contains(tokens[index].text) { open.append(index) }
            if [")", "]", "}"].contains(tokens[index].text), !open.isEmpty { open.removeLast() }
        }
        guard let block = open.last else { return .refused("line \(shown) is not inside a function body") }
        guard tokens[block].isPunctuation("{"), let close = matchingClose(block) else {
            return .refused("line \(shown) is inside the '\(tokens[block].text)' opened on line \(tokens[block].line + 1): it continues an expression")
        }
        // The braces from the innermost out: closures until the function's body.
        var closures = 0
        var body: (keyword: Int, name: String, brace: Int)?
        for brace in open.reversed() where tokens[brace].isPunctuation("{") {
            let kind = braceKind(brace)
            if kind == .closure { closures += 1 }
            if case .function(let keyword) = kind {
                body = (keyword, keyword + 1 < tokens.count ? tokens[keyword + 1].text : "", brace)
                break
            }
            if kind == .type { break }
        }
        guard let body else { return .refused("line \(shown) is not inside a function body") }
        if let problem = closureMismatch(closures: closures, function: function, keyword: tokens[body.keyword].text, name: body.name) {
            return .refused("line \(shown) \(problem)")
        }
        let starts = statementStarts(in: (braceKind(block) == .closure ? closureBodyStart(block) : block + 1)..<close)
        guard let position = starts.firstIndex(of: first) else {
            let owner = starts.last { $0 < first }.map { " on line \(tokens[$0].line + 1)" } ?? ""
            return .refused("line \(shown) continues the statement that starts\(owner)")
        }
        let next = position + 1 < starts.count ? starts[position + 1] : close
        var end = next - 1
        while end > first, tokens[end].isPunctuation(";") { end -= 1 }
        let endLine = tokens[end].line
        if next == close && tokens[close].line == endLine {
            return .refused("the block closes on line \(endLine + 1) right after the statement: there is no line to put the hand-off on")
        }
        if next != close && tokens[next].line == endLine {
            return .refused("another statement follows it on line \(endLine + 1)")
        }
        switch receiver(first...end) {
        case .failure(let refusal):
            return .refused("line \(shown): \(refusal.reason)")
        case .success(let receiver):
            let declared = declaredType(of: receiver.text, before: first, from: body.keyword, bodyOpen: body.brace)
            let wanted = typeName.split(separator: ".").last.map { String($0.prefix { $0 != "<" }) } ?? typeName
            if let declared, declared.type != wanted {
                return .refused("line \(shown): '\(receiver.text)' is declared as '\(declared.type)' on line \(declared.line + 1), not as '\(wanted)'")
            }
            let noted = declared.map { "'\(receiver.text)' is declared as '\($0.type)' on line \($0.line + 1)" }
                ?? "the scan found no declaration of '\(receiver.text)' with a type"
            return .after(endLine: endLine, receiver: receiver.text, column: tokens[first].column, typeNoted: noted)
        }
    }

    private struct Refusal: Error {
        var reason: String
    }

    /// The plain variable a statement is a call or member access on, after `try`/`await` and a
    /// `let x =` or `_ =`: `x.m`, `x.m(…)`, or `x.m` assigned (`=`, `+=` …); anything else, refused.
    private func receiver(_ statement: ClosedRange<Int>) -> Result<SourceToken, Refusal> {
        var index = statement.lowerBound
        let end = statement.upperBound
        let head = tokens[index]
        if head.isIdentifier("return") || head.isIdentifier("throw") {
            return .failure(Refusal(reason: "it is a '\(head.text)': nothing after it runs"))
        }
        func skipEffects() {
            while index < end, tokens[index].isIdentifier("try") || tokens[index].isIdentifier("await") {
                index += 1
                if index < end, tokens[index].isPunctuation("?") || tokens[index].isPunctuation("!") { index += 1 }
            }
        }
        skipEffects()
        var bound = false
        if tokens[index].isIdentifier("let") || tokens[index].isIdentifier("var") || tokens[index].isIdentifier("_") {
            guard let equals = (index...end).first(where: { tokens[$0].isPunctuation("=") }), equals < end else {
                return .failure(Refusal(reason: "a declaration without a value is no use of the object"))
            }
            index = equals + 1
            bound = true
            skipEffects()
        }
        let variable = tokens[index]
        guard variable.kind == .identifier, !Self.notVariables.contains(variable.text), variable.text.first?.isUppercase != true,
            index + 2 <= end, tokens[index + 1].isPunctuation("."), tokens[index + 2].kind == .identifier
        else {
            return .failure(Refusal(reason: "it is not a call or member access on a plain variable (its receiver is an expression, 'self', implicit or a type)"))
        }
        var after = index + 3
        if after <= end, tokens[after].isPunctuation("("), let close = matchingClose(after) { after = close + 1 }
        guard after <= end else { return .success(variable) }
        let rest = tokens[after]
        if rest.isPunctuation("{") {
            return .failure(Refusal(reason: "its call has a trailing closure, which may run after the statement"))
        }
        let assigns = rest.isPunctuation("=") && (after + 1 > end || !tokens[after + 1].isPunctuation("="))
            || ["+", "-", "*", "/", "%", "&", "|", "^"].contains(rest.text) && rest.kind == .punctuation && after + 1 <= end
                && tokens[after + 1].isPunctuation("=") && tokens[after + 1].column == rest.column + 1 && tokens[after + 1].line == rest.line
        guard assigns, !bound else {
            return .failure(Refusal(reason: "the statement goes on after '\(variable.text).\(tokens[index + 2].text)' ('\(rest.text)'): the scan cannot tell which object it leaves"))
        }
        return .success(variable)
    }

    private enum BraceKind: Equatable {
        case closure, block, type
        case function(keyword: Int)
    }

    /// What a `{` opens, from the words before it in its statement: a control-flow block, a function's
    /// or accessor's body, a type's, or else a closure.
    private func braceKind(_ brace: Int) -> BraceKind {
        guard brace > 0 else { return .closure }
        let before = tokens[brace - 1]
        if before.kind == .identifier, ["else", "do", "repeat", "defer"].contains(before.text) { return .block }
        if before.kind == .identifier, Self.accessorWords.contains(before.text) { return .function(keyword: brace - 1) }
        var index = brace - 1
        var assigned = false
        while index >= 0 {
            let token = tokens[index]
            if token.kind == .punctuation, [")", "]"].contains(token.text) {
                // Back over the bracketed group to its opener.
                var depth = 0
                while index >= 0 {
                    if tokens[index].kind == .punctuation, [")", "]", "}"].contains(tokens[index].text) { depth += 1 }
                    if tokens[index].kind == .punctuation, ["(", "[", "{"].contains(tokens[index].text) { depth -= 1 }
                    if depth == 0 { break }
                    index -= 1
                }
                index -= 1
                continue
            }
            // A `{` inside brackets is a closure (an argument); one after another statement's end, too.
            if token.kind == .punctuation, ["{", "}", ";", "(", "["].contains(token.text) { return .closure }
            if token.isPunctuation("=") { assigned = true }
            if token.kind == .identifier {
                if Self.blockKeywords.contains(token.text) { return .block }
                if Self.functionKeywords.contains(token.text) { return .function(keyword: index) }
                if Self.typeKeywords.contains(token.text) { return .type }
                if token.text == "var" || token.text == "let" { return assigned ? .closure : .function(keyword: index) }
            }
            index -= 1
        }
        return .closure
    }

    /// The first token after a closure's `… in` signature (`{ title in`, `{ [weak self] (a: Int) in`),
    /// or right after the brace when it has none.
    private func closureBodyStart(_ brace: Int) -> Int {
        var index = brace + 1
        while index < tokens.count {
            let token = tokens[index]
            if token.isIdentifier("in") { return index + 1 }
            if token.kind == .punctuation, ["(", "["].contains(token.text), let close = matchingClose(index) {
                index = close + 1
                continue
            }
            let signature = token.kind == .identifier && !Self.notVariables.contains(token.text)
                || token.kind == .identifier && ["_", "throws", "async"].contains(token.text)
                || token.kind == .punctuation && [",", ":", "-", ">", ".", "?", "!", "<"].contains(token.text)
            if !signature { break }
            index += 1
        }
        return brace + 1
    }

    /// Why the statement is not where the run used the object: another closure depth or function than
    /// the run's `function` names (`closure #1 in Fetcher.fetch(_:)`); `nil` when they agree, or when
    /// the run named no function and the statement is in no closure.
    private func closureMismatch(closures: Int, function: String?, keyword: String, name: String) -> String? {
        guard let function else {
            return closures == 0 ? nil : "is inside a closure, and the run did not name the function that used the object there"
        }
        // `closure #1 in closure #2 in Fetcher.fetch(_:)`: two closures deep in `fetch(_:)`.
        var words = function.split(separator: " ")[...]
        var depth = 0
        while words.count > 3, words[words.startIndex] == "closure", words[words.startIndex + 1].hasPrefix("#"), words[words.startIndex + 2] == "in" {
            depth += 1
            words = words.dropFirst(3)
        }
        let rest = words.joined(separator: " ")
        if depth != closures || rest.hasSubstring("closure #") {
            return "is \(closures) \(closures == 1 ? "closure" : "closures") deep in its function, but the run used the object there in '\(function)': not the code that ran there"
        }
        let spelled = keyword == "func" ? name + "(" : keyword == "init" ? "init(" : nil
        if let spelled, rest.hasSubstring("("), !rest.hasSubstring(spelled) {
            return "is in '\(keyword == "func" ? name : keyword)', but the run used the object there in '\(function)' (the sources changed since the run?)"
        }
        return nil
    }

    /// The type a variable is declared with before `index`, back to the function's keyword: `let x: T`,
    /// `let x = T(…)`, or a parameter `x: T` of the function's signature (before `bodyOpen`); `nil`
    /// when the nearest declaration names no type (`for x in`, a closure's parameter, `= f()`) or
    /// there is none.
    private func declaredType(of name: String, before index: Int, from keyword: Int, bodyOpen: Int) -> (type: String, line: Int)? {
        for position in stride(from: index - 1, through: keyword, by: -1) where tokens[position].isIdentifier(name) {
            let previous = position > 0 ? tokens[position - 1] : nil
            guard position + 2 < tokens.count else { return nil }
            if previous?.isIdentifier("for") == true || tokens[position + 1].isIdentifier("in") { return nil }
            let declares = previous?.isIdentifier("let") == true || previous?.isIdentifier("var") == true
            let parameter = position < bodyOpen && tokens[position + 1].isPunctuation(":")
                && (previous?.isPunctuation("(") == true || previous?.isPunctuation(",") == true || previous?.kind == .identifier)
            guard declares || parameter else { continue }
            var type = position + 2
            if declares && tokens[position + 1].isPunctuation("=") {
                // `= T(…)` or `= T<…>(…)`: an initializer names the type; any other value, unknown.
                let start = tokens[type]
                guard start.kind == .identifier, start.text.first?.isUppercase == true, type + 1 < tokens.count,
                    tokens[type + 1].isPunctuation("(") || tokens[type + 1].isPunctuation("<")
                else { return nil }
                return (start.text, start.line)
            }
            guard tokens[position + 1].isPunctuation(":") else { return nil }
            // A qualified name (`FeedReader.Article`) is its last part.
            while type + 2 < tokens.count, tokens[type].kind == .identifier, tokens[type + 1].isPunctuation("."), tokens[type + 2].kind == .identifier {
                type += 2
            }
            guard tokens[type].kind == .identifier else { return nil }
            return (tokens[type].text, tokens[type].line)
        }
        return nil
    }
}
