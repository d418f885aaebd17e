/// The `fixedOwnerChanged` finding: an object whose confinement is declared with a fixed owner, handed
/// off or detached by its own methods.
///
/// A fixed confinement (`Confinement(owner:)`, `Confinement()`) costs no allocation in release builds
/// because its owner never changes; `handOff(to:)` and `detach()` on it are reported at run time and
/// leave the owner as it was. The audit finds the transfers it can see without a type checker: calls in
/// the class's own methods and initializers, on `self` (written or implicit) or on `confinement`.
extension AuditContext {
    mutating func auditTransfers(of type: SymbolGraph.Symbol, typeName: String) -> [AuditFinding] {
        let typeUSR = type.identifier.precise
        // The type's own `confinement`, else the one it inherits (the nearest superclass that declares it).
        var declared: ConfinementDeclaration?
        for usr in [typeUSR] + index.ancestors(of: typeUSR) where declared == nil {
            declared = confinementDeclaration(of: usr)
        }
        guard let declaration = declared, declaration.isFixed else { return [] }
        let declaredAt = "\(declaration.path.split(separator: "/").last ?? ""):\(declaration.line + 1)"
        var findings: [AuditFinding] = []
        for member in memberSymbols(of: typeUSR)
        where member.kind.identifier == "swift.method" || member.kind.identifier == "swift.init" {
            guard let location = member.location, let file = file(location.path),
                  let body = file.functionBody(line: location.position.line, column: location.position.character)
            else { continue }
            for call in file.ownerTransfers(in: body) where !file.isSuppressed(line: call.line) {
                findings.append(AuditFinding(
                    kind: .fixedOwnerChanged, typeName: typeName, member: call.member, path: location.path,
                    line: call.line + 1, column: call.column + 1,
                    message: "'\(call.member)' changes the owner of '\(typeName)', whose confinement is declared with a fixed owner (\(declaration.spelling) at \(declaredAt)); a fixed owner cannot change, so the call is reported at run time and the owner stays; create the confinement with Confinement.transferable(owner:) if the object changes hands",
                    note: "a fixed confinement costs no allocation in release builds; a transferable one pays for a record of its own"
                ))
            }
        }
        return findings
    }

    /// How the type `usr` itself declares `confinement`, when it stores it with an initial value.
    private mutating func confinementDeclaration(of usr: String) -> ConfinementDeclaration? {
        for member in memberSymbols(of: usr) where member.kind.identifier == "swift.property" && member.names.title == "confinement" {
            guard let location = member.location, let file = file(location.path) else { return nil }
            return file.confinementDeclaration(line: location.position.line, column: location.position.character)
                .map { ConfinementDeclaration(path: location.path, line: location.position.line, isFixed: $0.isFixed, spelling: $0.spelling) }
        }
        return nil
    }
}

/// Where and how a class declares its `confinement`.
private struct ConfinementDeclaration {
    var path: String
    /// 0-based.
    var line: Int
    var isFixed: Bool
    /// The initializer as the finding quotes it: `Confinement(owner:)`, `Confinement()`, ….
    var spelling: String
}

extension SourceFile {
    /// The factories that make a confinement whose owner may change.
    private static let transferableFactories: Set<String> = ["transferable", "detached"]

    /// Whether the stored property whose name is at the given position is initialised with a fixed
    /// confinement (`Confinement(…)`, `Confinement.init(…)`, `.init(…)`) or a transferable one
    /// (`Confinement.transferable(…)`, `.detached(…)`); `nil` for anything else (computed, set in an
    /// initializer, built by a helper).
    func confinementDeclaration(line: Int, column: Int) -> (isFixed: Bool, spelling: String)? {
        guard let nameIndex = tokenIndex(line: line, column: column),
              let equals = tokens[nameIndex...].prefix(8).firstIndex(where: { $0.isPunctuation("=") || $0.isPunctuation("{") }),
              tokens[equals].isPunctuation("=")
        else { return nil }
        var index = equals + 1
        if index < tokens.count, tokens[index].isIdentifier("Confinement") { index += 1 }
        if index + 1 < tokens.count, tokens[index].isPunctuation("."), tokens[index + 1].kind == .identifier {
            let name = tokens[index + 1].text
            if Self.transferableFactories.contains(name) { return (false, "Confinement.\(name)") }
            guard name == "init" else { return nil }
            index += 2
        }
        guard index < tokens.count, tokens[index].isPunctuation("("), let close = matchingClose(index) else { return nil }
        // The argument labels, for the finding's text: `Confinement(owner:options:)`.
        var labels = ""
        var depth = 0
        for position in (index + 1)..<close {
            let token = tokens[position]
            if token.isPunctuation("(") || token.isPunctuation("[") { depth += 1 }
            if token.isPunctuation(")") || token.isPunctuation("]") { depth -= 1 }
            if depth == 0, token.kind == .identifier, position + 1 < close, tokens[position + 1].isPunctuation(":"),
               position == index + 1 || tokens[position - 1].isPunctuation(",") {
                labels += "\(token.text):"
            }
        }
        return (true, "Confinement(\(labels))")
    }

    /// The `handOff(to:)` and `detach()` calls in `range` made on the enclosing object: implicit
    /// (`handOff(to: q)`), on `self`, on `confinement` or `self.confinement`. Calls on anything else
    /// name another object, whose type a scan cannot know.
    func ownerTransfers(in range: Range<Int>) -> [(member: String, line: Int, column: Int)] {
        var calls: [(member: String, line: Int, column: Int)] = []
        for index in range where tokens[index].kind == .identifier {
            let member: String
            switch tokens[index].text {
            case "handOff": member = "handOff(to:)"
            case "detach": member = "detach()"
            default: continue
            }
            guard index + 1 < range.upperBound, tokens[index + 1].isPunctuation("(") else { continue }
            if isOwnReceiver(endingBefore: index, from: range.lowerBound) {
                calls.append((member, tokens[index].line, tokens[index].column))
            }
        }
        return calls
    }

    /// Whether the call whose name is at `index` is made on the enclosing object or its confinement.
    private func isOwnReceiver(endingBefore index: Int, from start: Int) -> Bool {
        func text(_ position: Int) -> String? {
            position >= start ? tokens[position].text : nil
        }
        guard text(index - 1) == "." else {
            // Implicit `self`, unless it is a declaration (`func handOff(`) or an argument label.
            return text(index - 1) != "func"
        }
        switch text(index - 2) {
        case "self":
            return text(index - 3) != "."
        case "confinement":
            // `confinement.handOff`, or `self.confinement.handOff`; not `other.confinement.handOff`.
            return text(index - 3) != "." || text(index - 4) == "self" && text(index - 5) != "."
        default:
            return false
        }
    }
}
