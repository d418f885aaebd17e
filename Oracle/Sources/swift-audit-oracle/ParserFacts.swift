import SwiftSyntax

/// The parser's facts about a file: what swift-syntax's tree says of each declaration the front end
/// models, written in the front end's terms (`Facts`).
struct ParserFacts {
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter
    var facts = Facts()

    init(tree: SourceFileSyntax, path: String) {
        self.tree = tree
        converter = SourceLocationConverter(fileName: path, tree: tree)
        for node in TypeCollector.collect(in: tree) { addType(node) }
    }

    func position(_ absolute: AbsolutePosition) -> Position {
        let location = converter.location(for: absolute)
        return Position(line: location.line - 1, column: location.column - 1)
    }

    func start(_ node: some SyntaxProtocol) -> Position { position(node.positionAfterSkippingLeadingTrivia) }

    // MARK: Types

    private mutating func addType(_ node: DeclSyntax) {
        guard let group = node.asProtocol(DeclGroupSyntax.self) else { return }
        let (kind, keyword, name, nameToken): (String, TokenSyntax, String, TokenSyntax)
        if let decl = node.as(ClassDeclSyntax.self) {
            (kind, keyword, name, nameToken) = ("class", decl.classKeyword, Self.bare(decl.name), decl.name)
        } else if let decl = node.as(StructDeclSyntax.self) {
            (kind, keyword, name, nameToken) = ("struct", decl.structKeyword, Self.bare(decl.name), decl.name)
        } else if let decl = node.as(EnumDeclSyntax.self) {
            (kind, keyword, name, nameToken) = ("enum", decl.enumKeyword, Self.bare(decl.name), decl.name)
        } else if let decl = node.as(ActorDeclSyntax.self) {
            (kind, keyword, name, nameToken) = ("actor", decl.actorKeyword, Self.bare(decl.name), decl.name)
        } else if let decl = node.as(ProtocolDeclSyntax.self) {
            (kind, keyword, name, nameToken) = ("protocol", decl.protocolKeyword, Self.bare(decl.name), decl.name)
        } else if let decl = node.as(ExtensionDeclSyntax.self) {
            let written = Self.typePath(decl.extendedType)
            let last = Self.lastNameToken(decl.extendedType) ?? decl.extendedType.firstToken(viewMode: .sourceAccurate) ?? decl.extensionKeyword
            // A named type's last component (`Builder` of `Rope<Chunk>.Builder`); sugar as written (`[A.B]`, `T?`).
            let extended = Self.lastNameToken(decl.extendedType).map(Self.bare) ?? written
            (kind, keyword, name, nameToken) = ("extension", decl.extensionKeyword, extended, last)
        } else {
            return
        }
        let qualified = kind == "extension" ? Self.typePath(node.as(ExtensionDeclSyntax.self)!.extendedType)
            : (Self.enclosingNames(of: node) + [name]).joined(separator: ".")
        let inherited = group.inheritanceClause?.inheritedTypes.flatMap { Self.inheritedNames($0.type) } ?? []
        let block = group.memberBlock
        facts.add("type \(start(keyword).key)", [
            "kind": kind, "name": name, "qualified": qualified, "nameAt": start(nameToken).key,
            "inherits": inherited.joined(separator: ", "),
            "body": "\(start(block.leftBrace).key)-\(start(block.rightBrace).key)",
        ])
        for member in Self.flatten(block.members) { addMember(member) }
    }

    /// The members of a body with `#if` clauses passed over: every clause's members, in order.
    static func flatten(_ members: MemberBlockItemListSyntax) -> [DeclSyntax] {
        members.flatMap { item -> [DeclSyntax] in
            guard let directive = item.decl.as(IfConfigDeclSyntax.self) else { return [item.decl] }
            return directive.clauses.flatMap { clause -> [DeclSyntax] in
                guard case .decls(let inner)? = clause.elements else { return [] }
                return flatten(inner)
            }
        }
    }

    /// A name token's text without backticks.
    static func bare(_ token: TokenSyntax) -> String {
        let text = token.text
        return text.hasPrefix("`") && text.hasSuffix("`") && text.count > 1 ? String(text.dropFirst().dropLast()) : text
    }

    /// `Outer.Inner` for a member type, without generic arguments; other types as written.
    static func typePath(_ type: TypeSyntax) -> String {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return bare(identifier.name) }
        if let member = type.as(MemberTypeSyntax.self) { return typePath(member.baseType) + "." + bare(member.name) }
        return type.trimmedDescription
    }

    static func lastNameToken(_ type: TypeSyntax) -> TokenSyntax? {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name }
        if let member = type.as(MemberTypeSyntax.self) { return member.name }
        return nil
    }

    /// The names an inheritance entry contributes, as the front end writes them.
    static func inheritedNames(_ type: TypeSyntax) -> [String] {
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.flatMap { inheritedNames($0.type) }
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            let attributes = attributed.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
            let names = inheritedNames(attributed.baseType)
            guard let first = names.first else { return names }
            return [attributes.map { "@\($0) " }.joined() + first] + names.dropFirst()
        }
        if let suppressed = type.as(SuppressedTypeSyntax.self) {
            return inheritedNames(suppressed.type).map { "~" + $0 }
        }
        return [typePath(type)]
    }

    /// The names of the type declarations around `node`, outermost first (an extension by its
    /// extended type as written).
    static func enclosingNames(of node: some SyntaxProtocol) -> [String] {
        var names: [String] = []
        var parent = node.parent
        while let current = parent {
            if let decl = current.as(ClassDeclSyntax.self) { names.append(bare(decl.name)) }
            if let decl = current.as(StructDeclSyntax.self) { names.append(bare(decl.name)) }
            if let decl = current.as(EnumDeclSyntax.self) { names.append(bare(decl.name)) }
            if let decl = current.as(ActorDeclSyntax.self) { names.append(bare(decl.name)) }
            if let decl = current.as(ProtocolDeclSyntax.self) { names.append(bare(decl.name)) }
            if let decl = current.as(ExtensionDeclSyntax.self) { names.append(typePath(decl.extendedType)) }
            parent = current.parent
        }
        return names.reversed()
    }
}

/// Every type and extension declaration of a tree, nested and local ones included.
final class TypeCollector: SyntaxVisitor {
    private var found: [DeclSyntax] = []

    static func collect(in tree: SourceFileSyntax) -> [DeclSyntax] {
        let collector = TypeCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        return collector.found
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { found.append(DeclSyntax(node)); return .visitChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { found.append(DeclSyntax(node)); return .visitChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { found.append(DeclSyntax(node)); return .visitChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { found.append(DeclSyntax(node)); return .visitChildren }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { found.append(DeclSyntax(node)); return .visitChildren }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { found.append(DeclSyntax(node)); return .visitChildren }
}
