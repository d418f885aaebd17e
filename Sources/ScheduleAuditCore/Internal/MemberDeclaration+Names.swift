/// A member's name as the audit's notes and reports spell it.
extension SourceFile {
    /// Characters an operator's name is made of; the tokenizer makes each one a token of its own.
    private static let operatorCharacters: Set<String> = ["/", "=", "-", "+", "!", "*", "%", "<", ">", "&", "|", "^", "~", "?", "."]

    /// The member's name as declared: a word, or an operator function's every character (`==`).
    func name(of member: MemberDeclaration) -> String? {
        guard let first = member.nameToken else { return nil }
        return tokens[first...operatorEnd(from: first)].map(\.text).joined()
    }

    /// The last token of the name at `first`: itself for a word; for an operator, the last of the
    /// characters that touch one another (`==` before `(`; `<` of a generic clause does not touch).
    private func operatorEnd(from first: Int) -> Int {
        guard tokens[first].kind == .punctuation, Self.operatorCharacters.contains(tokens[first].text) else { return first }
        var last = first
        while last + 1 < tokens.count, tokens[last + 1].kind == .punctuation, Self.operatorCharacters.contains(tokens[last + 1].text),
            tokens[last + 1].line == tokens[last].line, tokens[last + 1].column == tokens[last].column + 1,
            !(tokens[last + 1].isPunctuation("<") && last + 2 < tokens.count && tokens[last + 2].kind == .identifier) {
            last += 1
        }
        return last
    }

    /// The member's name with argument labels, as `#function` spells it (`enqueue(_:)`); the bare name
    /// for properties; `init(…)`, `subscript(…)` likewise.
    func displayName(of member: MemberDeclaration) -> String {
        let base = name(of: member) ?? tokens[member.keyword].text
        guard [.function, .initializer, .subscript].contains(member.kind) else { return base }
        var index = (member.nameToken.map { operatorEnd(from: $0) } ?? member.keyword) + 1
        // A failable initializer: `init?(…)`, `init!(…)`.
        if member.kind == .initializer, index < member.end, tokens[index].isPunctuation("?") || tokens[index].isPunctuation("!") { index += 1 }
        if index < member.end, tokens[index].isPunctuation("<"), let close = closingAngle(index) { index = close + 1 }
        guard index < member.end, tokens[index].isPunctuation("("), let close = matchingClose(index) else { return base }
        var labels: [String] = []
        var position = index + 1
        while position < close {
            // A parameter is `label name: Type` or `name: Type`; the label is its first word, after
            // any attribute (`@noescape block: () -> Void`, an older spelling).
            while position + 1 < close, tokens[position].isPunctuation("@") {
                position += 2
                // A generic attribute's arguments touch its name (`@ParserBuilder<Input> upstream:`).
                if tokens[position].isPunctuation("<"), touches(position - 1, position), let angle = closingAngle(position), angle < close {
                    position = angle + 1
                }
                if tokens[position].isPunctuation("("), let group = matchingClose(position) { position = group + 1 }
            }
            if tokens[position].kind == .identifier { labels.append(member.kind == .subscript && tokens[position + 1].isPunctuation(":") ? "_" : tokens[position].text) }
            while position < close, !tokens[position].isPunctuation(",") {
                // A default value may hold a closure with commas of its own (`= { _, text in text }`). A `<`
                // opens generic arguments only touching a name (`Array<Int>`): `1 << 14` shifts.
                let generic = tokens[position].isPunctuation("<") && tokens[position - 1].kind == .identifier && touches(position - 1, position)
                if tokens[position].isPunctuation("(") || tokens[position].isPunctuation("[") || tokens[position].isPunctuation("{") || generic,
                    let group = generic ? closingAngle(position) : matchingClose(position), group < close {
                    position = group
                }
                position += 1
            }
            position += 1
        }
        return base + "(" + labels.map { $0 + ":" }.joined() + ")"
    }
}
