/// What the tools think of one instance method, asked once: `adopt` guards only an `unguarded` one and
/// the audit reports only an `unguarded` one, so the audit never asks for a guard `adopt` refuses.
enum MethodClassification: Equatable, Sendable {
    /// `static` or `class`: no instance to check.
    case typeMember
    /// `private` or `fileprivate`: only the type's own members call it, and those are guarded.
    case privateMember
    /// Its body calls a guard (`assertIsolated`, `preconditionIsolated`, `isIsolated`).
    case guarded
    /// Its body is one hop onto a queue or scheduler (`queue.sync { … }`): its own code runs outside the
    /// owner and what it touches runs inside, where it is checked. A guard here would run outside the
    /// owner and report every correct call.
    case entryPoint(receiver: String, call: String)
    /// None of these: a guard belongs first in its body.
    case unguarded

    /// Identifiers whose presence in a body counts as a guard.
    static let guardNames: Set<String> = ["assertIsolated", "preconditionIsolated", "isIsolated"]

    /// Why a method of this classification gets no guard (`nil` for `unguarded`), in the words `adopt`
    /// prints after "skipped 'name': ".
    var reasonForNoGuard: String? {
        switch self {
        case .typeMember: "a static or class method has no instance to check"
        case .privateMember: "private methods are called by the type's own members, which are guarded (as the audit does)"
        case .guarded: "already guarded"
        case .entryPoint(let receiver, let call):
            "an entry point, its body hops onto '\(receiver)' (\(receiver).\(call) { … }): what it touches runs there and is checked there; a guard here would run outside the owner"
        case .unguarded: nil
        }
    }
}

extension SourceFile {
    /// The classification of a function member with a body; `nil` for anything else.
    func classify(method member: MemberDeclaration) -> MethodClassification? {
        guard member.kind == .function, let body = member.body else { return nil }
        if member.isTypeMember { return .typeMember }
        if member.isPrivate { return .privateMember }
        if containsIdentifier(in: (body.open + 1)..<body.close, anyOf: MethodClassification.guardNames) { return .guarded }
        if let hop = hop(of: member) { return .entryPoint(receiver: hop.receiver, call: hop.call) }
        return .unguarded
    }

    /// The member declared directly in a type or extension body whose name token is at the 0-based
    /// position (where a symbol graph locates a declaration).
    func member(namedAt line: Int, column: Int) -> MemberDeclaration? {
        guard let name = tokenIndex(line: line, column: column) else { return nil }
        for type in typeDeclarations() where tokens[type.openBrace].line <= line && line <= tokens[type.closeBrace].line {
            if let member = members(open: type.openBrace, close: type.closeBrace).first(where: { $0.nameToken == name }) {
                return member
            }
        }
        return nil
    }
}
