import SwiftSyntax

extension ParserFacts {
    /// Calls that never return: a body that ends in one returns nothing implicitly (the front end's
    /// list; `return fatalError()` and `fatalError()` both compile after a guard, so either answer is right).
    static let neverReturning: Set<String> = ["fatalError", "preconditionFailure", "exit", "abort"]

    mutating func addMember(_ decl: DeclSyntax) {
        var fields: [String: String] = [:]
        var keyword: TokenSyntax
        var attributes: AttributeListSyntax?
        var modifiers: DeclModifierListSyntax?
        switch decl.as(DeclSyntaxEnum.self) {
        case .variableDecl(let variable):
            keyword = variable.bindingSpecifier
            fields["kind"] = variable.bindingSpecifier.tokenKind == .keyword(.let) ? "constant" : "variable"
            (attributes, modifiers) = (variable.attributes, variable.modifiers)
            fields["name"] = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self).map { Self.bare($0.identifier) } ?? "-"
            fields["several"] = String(variable.bindings.count > 1)
            let computed = variable.bindings.contains { binding in
                switch binding.accessorBlock?.accessors {
                case .getter?: return true
                case .accessors(let list)?:
                    return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
                case nil: return false
                }
            }
            fields["storage"] = computed ? "computed" : "stored"
        case .functionDecl(let function):
            keyword = function.funcKeyword
            fields["kind"] = "function"
            (attributes, modifiers) = (function.attributes, function.modifiers)
            fields["name"] = Self.bare(function.name)
            fields["display"] = Self.bare(function.name) + Self.labels(function.signature.parameterClause, isSubscript: false)
            fields["body"] = function.body.map { "\(start($0.leftBrace).key)-\(start($0.rightBrace).key)" } ?? "none"
            if let body = function.body {
                addStatements(of: body)
                facts.add("implicit \(start(body.leftBrace).key)", ["verdict": implicitReturn(of: function, body: body)])
            }
        case .initializerDecl(let initializer):
            keyword = initializer.initKeyword
            fields["kind"] = "initializer"
            (attributes, modifiers) = (initializer.attributes, initializer.modifiers)
            fields["name"] = "-"
            fields["display"] = "init" + Self.labels(initializer.signature.parameterClause, isSubscript: false)
            fields["body"] = initializer.body.map { "\(start($0.leftBrace).key)-\(start($0.rightBrace).key)" } ?? "none"
            if let body = initializer.body { addStatements(of: body) }
        case .deinitializerDecl(let deinitializer):
            keyword = deinitializer.deinitKeyword
            fields["kind"] = "deinitializer"
            (attributes, modifiers) = (deinitializer.attributes, deinitializer.modifiers)
            fields["name"] = "-"
            fields["body"] = deinitializer.body.map { "\(start($0.leftBrace).key)-\(start($0.rightBrace).key)" } ?? "none"
            if let body = deinitializer.body { addStatements(of: body) }
        case .subscriptDecl(let subscriptDeclaration):
            keyword = subscriptDeclaration.subscriptKeyword
            fields["kind"] = "subscript"
            (attributes, modifiers) = (subscriptDeclaration.attributes, subscriptDeclaration.modifiers)
            fields["name"] = "-"
            fields["display"] = "subscript" + Self.labels(subscriptDeclaration.parameterClause, isSubscript: true)
            fields["body"] = subscriptDeclaration.accessorBlock.map { "\(start($0.leftBrace).key)-\(start($0.rightBrace).key)" } ?? "none"
        default:
            if let group = decl.asProtocol(DeclGroupSyntax.self), !decl.is(ExtensionDeclSyntax.self) {
                fields["kind"] = "nestedType"
                keyword = group.introducer
                fields["name"] = decl.asProtocol(NamedDeclSyntax.self).map { Self.bare($0.name) } ?? "-"
            } else {
                fields["kind"] = "other"
                keyword = decl.firstToken(viewMode: .sourceAccurate) ?? TokenSyntax(.unknown(""), presence: .missing)
            }
            if let attributed = decl.asProtocol(WithAttributesSyntax.self) { attributes = attributed.attributes }
            if let modified = decl.asProtocol(WithModifiersSyntax.self) { modifiers = modified.modifiers }
            if fields["kind"] == "other" {
                // The keyword of a typealias, associatedtype or case: after its attributes and modifiers.
                keyword = Self.firstToken(after: attributes, modifiers, in: decl) ?? keyword
            }
        }
        fields["keyword"] = start(keyword).key
        fields["attributes"] = Self.attributeNames(attributes ?? []).sorted().joined(separator: " ")
        fields["modifiers"] = (modifiers ?? []).map { modifier in
            modifier.name.text + (modifier.detail.map { "(\($0.detail.text))" } ?? "")
        }.sorted().joined(separator: " ")
        fields["end"] = lastTokenStart(of: decl).key
        facts.add("member \(start(decl).key)", fields)
    }

    /// The attributes' names; those inside `#if` clauses too, every clause's (as the front end
    /// lists members of every clause).
    static func attributeNames(_ list: AttributeListSyntax) -> [String] {
        list.flatMap { element -> [String] in
            switch element {
            case .attribute(let attribute):
                // The name without generic arguments (`ParserBuilder` of `@ParserBuilder<Input>`).
                return [attribute.attributeName.as(IdentifierTypeSyntax.self).map { bare($0.name) } ?? attribute.attributeName.trimmedDescription]
            case .ifConfigDecl(let directive):
                return directive.clauses.flatMap { clause -> [String] in
                    guard case .attributes(let inner)? = clause.elements else { return [] }
                    return attributeNames(inner)
                }
            }
        }
    }

    /// Whether a statement is `throw` or a call to a function that never returns.
    static func neverReturns(_ item: CodeBlockItemSyntax) -> Bool {
        if item.item.is(ThrowStmtSyntax.self) { return true }
        let expression = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression
        guard let call = expression?.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) else { return false }
        return neverReturning.contains(callee.baseName.text)
    }

    /// `(a:_:)`, as `#function` spells a parameter list; a subscript's parameters have no label
    /// unless they are given one apart from their name.
    static func labels(_ clause: FunctionParameterClauseSyntax, isSubscript: Bool) -> String {
        "(" + clause.parameters.map { parameter in
            let label = isSubscript && parameter.secondName == nil ? "_" : bare(parameter.firstName)
            return label + ":"
        }.joined() + ")"
    }

    static func firstToken(after attributes: AttributeListSyntax?, _ modifiers: DeclModifierListSyntax?, in decl: DeclSyntax) -> TokenSyntax? {
        let last = modifiers?.lastToken(viewMode: .sourceAccurate) ?? attributes?.lastToken(viewMode: .sourceAccurate)
        guard let last else { return decl.firstToken(viewMode: .sourceAccurate) }
        return last.nextToken(viewMode: .sourceAccurate)
    }

    /// Where the front end's last token of `node` starts: a string or regex literal is one token at its
    /// opening delimiter; an operator is one token per character, so the last character.
    func lastTokenStart(of node: some SyntaxProtocol) -> Position {
        guard let last = node.lastToken(viewMode: .sourceAccurate) else { return start(node) }
        var literal: Syntax?
        var parent = last.parent
        while let current = parent, current.id != node.id {
            if current.is(StringLiteralExprSyntax.self) || current.is(RegexLiteralExprSyntax.self)
                || current.is(SimpleStringLiteralExprSyntax.self) {
                literal = current
            }
            parent = current.parent
        }
        if let literal { return start(literal) }
        switch last.tokenKind {
        case .identifier, .keyword, .integerLiteral, .floatLiteral, .dollarIdentifier, .wildcard,
             .poundIf, .poundElse, .poundElseif, .poundEndif, .rawStringPoundDelimiter:
            // `#line`, `#function`: the front end's one token, from the `#`.
            if let pound = last.previousToken(viewMode: .sourceAccurate), pound.tokenKind == .pound,
                pound.endPositionBeforeTrailingTrivia == last.positionAfterSkippingLeadingTrivia {
                return start(pound)
            }
            return start(last)
        default:
            let first = start(last)
            return Position(line: first.line, column: first.column + max(0, last.trimmedLength.utf8Length - 1))
        }
    }

    // MARK: Bodies

    /// The first token of each statement of a body, `#if`, `#elseif`, `#else` and `#endif` lines
    /// included (the front end reads a directive as a statement of its own).
    mutating func addStatements(of body: CodeBlockSyntax) {
        var starts: [Position] = []
        func walk(_ items: CodeBlockItemListSyntax) {
            for item in items {
                if let directive = item.item.as(IfConfigDeclSyntax.self) {
                    for clause in directive.clauses {
                        starts.append(start(clause.poundKeyword))
                        if case .statements(let inner)? = clause.elements { walk(inner) }
                    }
                    starts.append(start(directive.poundEndif))
                } else {
                    starts.append(start(item))
                }
            }
        }
        walk(body.statements)
        facts.add("statements \(start(body.leftBrace).key)", ["starts": starts.map(\.key).joined(separator: " ")])
    }

    /// What putting a statement first does to a function's body: nothing (`first`), or it needs
    /// `return` before these expressions (`return-before …`), or no statement may go first (`refuse`:
    /// a result builder's components, or several statements returning with no `return`).
    func implicitReturn(of function: FunctionDeclSyntax, body: CodeBlockSyntax) -> String {
        guard let result = function.signature.returnClause?.type,
            !["Void", "()", "Never", "Swift.Void", "Swift.Never"].contains(result.trimmedDescription)
        else { return "first" }
        if function.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription.hasSuffix("Builder") == true }) {
            return "refuse"
        }
        if ReturnFinder.hasOwnReturn(body) || body.statements.isEmpty { return "first" }
        var before: [Position] = []
        func judge(_ items: CodeBlockItemListSyntax) -> Bool {
            if items.isEmpty { return true }
            if items.count == 1, let directive = items.first?.item.as(IfConfigDeclSyntax.self) {
                return directive.clauses.allSatisfy { clause in
                    guard case .statements(let inner)? = clause.elements else { return true }
                    return judge(inner)
                }
            }
            // Several statements that end in a call that never returns: nothing is returned implicitly.
            if items.count > 1, let last = items.last, Self.neverReturns(last) { return true }
            guard items.count == 1, let item = items.first else { return false }
            if item.item.is(ThrowStmtSyntax.self) { return true }
            if let expression = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression {
                if let call = expression.as(FunctionCallExprSyntax.self),
                    let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
                    Self.neverReturning.contains(callee.baseName.text) {
                    return true
                }
                before.append(start(item))
                return true
            }
            return false
        }
        guard judge(body.statements) else { return "refuse" }
        return before.isEmpty ? "first" : "return-before " + before.map(\.key).joined(separator: " ")
    }
}

/// Whether a body has a `return` of its own: not one in a closure, a nested function or type.
final class ReturnFinder: SyntaxVisitor {
    private var found = false

    static func hasOwnReturn(_ body: CodeBlockSyntax) -> Bool {
        let finder = ReturnFinder(viewMode: .sourceAccurate)
        finder.walk(body)
        return finder.found
    }

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { found = true; return .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // A local computed variable's getter is a function of its own.
        node.bindings.contains { $0.accessorBlock != nil } ? .skipChildren : .visitChildren
    }
}
