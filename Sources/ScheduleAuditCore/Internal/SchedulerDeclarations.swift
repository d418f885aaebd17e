/// The variables that hold a library scheduler or a raw dispatch queue created with a literal label,
/// found by a scan of the sources: `let uploads = SerialQueueScheduler(label: "com.app.uploads")`,
/// `let storage = DispatchQueue(label: "com.app.storage")`, `static let`, `var`, with or without a type
/// annotation or a `Schedulable.`/`Dispatch.` prefix. `apply` names an owner by such a variable.
///
/// Only a global or a `static` member can be named from a record's initial value (an instance property
/// or a local is not in scope there): those are the ones ``lookup(label:queue:)`` proposes; the others are
/// named in its answer so the user knows why none was used. An instance property of the record's own
/// class is named from its initializers instead (`ProposalApplier.instanceOwner`).
struct SchedulerDeclarations: Sendable {
    /// The initializers recognised, by type name.
    static let schedulerTypes: Set<String> = ["SerialQueueScheduler", "ThreadScheduler"]
    /// The raw queue's initializer: a `queue` context is named by a variable of this type.
    static let queueType = "DispatchQueue"

    /// Words that may precede `let`/`var` in the same declaration.
    private static let modifiers: Set<String> = [
        "static", "class", "private", "fileprivate", "internal", "public", "package", "nonisolated", "lazy", "unowned", "weak",
    ]

    struct Declaration: Equatable, Sendable {
        /// The variable's name.
        var name: String
        /// How a record's initializer elsewhere spells it (`uploads`, `Services.uploads`); `nil` for an
        /// instance property or a local.
        var spelling: String?
        var label: String
        /// Whether it holds a raw `DispatchQueue` (a `queue` context) rather than a library scheduler.
        var isQueue = false
        var path: String
        /// 1-based.
        var line: Int
    }

    /// The answer for one label.
    enum Lookup: Equatable, Sendable {
        /// The one variable that names it, and where it is declared.
        case found(spelling: String, declaration: Declaration)
        /// Why no variable can be used.
        case notFound(String)
    }

    private(set) var declarations: [Declaration] = []

    /// Scans files.
    /// - Parameter files: Each file's path and tokens.
    init(files: [SourceFile]) {
        for file in files { scan(file) }
    }

    /// The variable to name the scheduler (or, with `queue`, the raw dispatch queue) labelled `label` by.
    func lookup(label: String, queue: Bool = false) -> Lookup {
        let matching = declarations.filter { $0.label == label && $0.isQueue == queue }
        let nameable = matching.filter { $0.spelling != nil }
        if nameable.count == 1, let only = nameable.first, let spelling = only.spelling {
            return .found(spelling: spelling, declaration: only)
        }
        if nameable.count > 1 {
            let list = nameable.map { "'\($0.spelling ?? $0.name)' (\($0.path):\($0.line))" }.joined(separator: ", ")
            return .notFound("\(nameable.count) variables hold a \(queue ? "queue" : "scheduler") labelled '\(label)': \(list); pick one")
        }
        if let other = matching.first {
            return .notFound("'\(other.name)' (\(other.path):\(other.line)) holds it, but as an instance property or a local, which the record's initializer cannot name; make it a global or a static member")
        }
        if queue { return .notFound("no 'let' or 'var' initialised with DispatchQueue(label: \"\(label)\") in the sources") }
        return .notFound("no 'let' or 'var' initialised with SerialQueueScheduler(label: \"\(label)\") or ThreadScheduler(label: \"\(label)\") in the sources")
    }

    /// What encloses a token: a type (with its name) or anything else (a function, closure, accessor).
    private enum Scope {
        case type(String)
        case other
    }

    private mutating func scan(_ file: SourceFile) {
        let tokens = file.tokens
        var scopes: [Scope] = []
        var pendingType: String?
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .identifier, ["class", "struct", "enum", "actor", "extension", "protocol"].contains(token.text),
                index + 1 < tokens.count, tokens[index + 1].kind == .identifier,
                !["func", "var", "let", "subscript", "override", "final", "init"].contains(tokens[index + 1].text) {
                // `extension A.B`: the dotted name is the type's full name.
                var name = tokens[index + 1].text
                var next = index + 2
                while next + 1 < tokens.count, tokens[next].isPunctuation("."), tokens[next + 1].kind == .identifier {
                    name += "." + tokens[next + 1].text
                    next += 2
                }
                pendingType = name
            } else if token.isPunctuation("{") {
                scopes.append(pendingType.map(Scope.type) ?? .other)
                pendingType = nil
            } else if token.isPunctuation("}") {
                _ = scopes.popLast()
            } else if token.isIdentifier("let") || token.isIdentifier("var") {
                if let declaration = declaration(at: index, in: file, scopes: scopes) {
                    declarations.append(declaration)
                }
            }
            index += 1
        }
    }

    /// The declaration whose `let`/`var` is at `index`, if its initial value is a recognised scheduler
    /// with a literal label.
    private func declaration(at index: Int, in file: SourceFile, scopes: [Scope]) -> Declaration? {
        let tokens = file.tokens
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return nil }
        var cursor = index + 2
        // Skip a type annotation up to `=` on the same declaration.
        while cursor < tokens.count, !tokens[cursor].isPunctuation("="), cursor - index < 12 {
            if tokens[cursor].isPunctuation("{") || tokens[cursor].isPunctuation(";") { return nil }
            cursor += 1
        }
        cursor += 1
        if cursor + 1 < tokens.count, tokens[cursor].isIdentifier("Schedulable") || tokens[cursor].isIdentifier("Dispatch"),
            tokens[cursor + 1].isPunctuation(".") {
            cursor += 2
        }
        guard cursor + 4 < tokens.count, tokens[cursor].kind == .identifier,
            Self.schedulerTypes.contains(tokens[cursor].text) || tokens[cursor].text == Self.queueType,
            tokens[cursor + 1].isPunctuation("("), tokens[cursor + 2].isIdentifier("label"),
            tokens[cursor + 3].isPunctuation(":"), tokens[cursor + 4].kind == .string
        else { return nil }
        let name = tokens[index + 1].text
        // The declaration's own modifiers: walk back over them (and `private(set)`), stopping at
        // anything else, such as the `{` of the type's body or the previous declaration.
        var isStatic = false
        var before = index - 1
        while before >= 0, tokens[before].kind == .identifier && Self.modifiers.contains(tokens[before].text)
            || tokens[before].isPunctuation("(") || tokens[before].isPunctuation(")") || tokens[before].isIdentifier("set") {
            isStatic = isStatic || tokens[before].isIdentifier("static") || tokens[before].isIdentifier("class")
            before -= 1
        }
        var spelling: String?
        if scopes.isEmpty {
            spelling = name
        } else if isStatic, scopes.allSatisfy({ if case .type = $0 { true } else { false } }) {
            let types = scopes.compactMap { if case .type(let type) = $0 { type } else { nil } }
            // An extension's name is already the full path; a nested type adds to the one around it.
            let last = types.lastIndex { $0.contains(".") } ?? 0
            spelling = (types[last...] + [name]).joined(separator: ".")
        }
        return Declaration(
            name: name, spelling: spelling, label: tokens[cursor + 4].text, isQueue: tokens[cursor].text == Self.queueType,
            path: file.path, line: tokens[index].line + 1
        )
    }
}
