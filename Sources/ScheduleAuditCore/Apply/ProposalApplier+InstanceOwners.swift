/// An owner that each instance holds itself: a raw queue or a library scheduler stored in an instance
/// property of the record's own class (`private let queue = DispatchQueue(label: "com.app.cache")`).
///
/// The record's initial value cannot name it (no instance exists yet when a property's initial value
/// runs), but every designated initializer can, once the queue is set. A property with an initial
/// value is set before the initializer's body starts, so the assignment goes first in each body, where
/// no earlier statement can read the record:
///
/// ```swift
/// let confinement: Confinement
/// init() {
///     self.confinement = Confinement(owner: self.queue)
///     …
/// }
/// ```
///
/// `self.` on both sides, so that a parameter named like the property changes nothing. Convenience
/// initializers delegate to a designated one, which assigns it. A class without an initializer gets
/// `init()` (the one the compiler made for it), unless it may inherit initializers from a superclass:
/// declaring one would stop that, so the tool says so and edits nothing.
extension ProposalApplier {
    /// The instance property that holds the owner, in the class whose body holds the record's line.
    struct InstanceOwner {
        var property: String
        var path: String
        var type: TypeDeclaration
    }

    /// Names in an inheritance clause that are protocols every class may list: a class whose first
    /// inherited name is one of these (or a protocol the sources declare) has no superclass.
    private static let knownProtocols: Set<String> = [
        "ConfinedObject", "Schedulable.ConfinedObject", "Sendable", "@unchecked Sendable", "AnyObject", "Equatable",
        "Hashable", "Identifiable", "CustomStringConvertible", "CustomDebugStringConvertible", "Codable",
        "Encodable", "Decodable",
    ]

    /// The instance property of the record's class holding the owner `context`, when there is exactly one.
    func instanceOwner(_ context: Observation.Context, path: String, recordLine line: Int) -> InstanceOwner? {
        guard context.kind == .queue || context.kind == .scheduler, let file = sources[path]?.file,
            let type = file.typeDeclarations().filter({
                $0.kind == .class && file.tokens[$0.openBrace].line <= line && file.tokens[$0.closeBrace].line >= line
            }).max(by: { $0.openBrace < $1.openBrace })
        else { return nil }
        let held = schedulers.declarations.filter { $0.label == context.label && $0.isQueue == (context.kind == .queue) && $0.path == path }
        let members = file.members(open: type.openBrace, close: type.closeBrace).filter { member in
            (member.kind == .constant || member.kind == .variable) && !member.isTypeMember && member.computedAccessors == nil
                && member.nameToken.map { name in
                    held.contains { $0.name == file.tokens[name].text && $0.line == file.tokens[name].line + 1 }
                } == true
        }
        guard members.count == 1, let name = members[0].nameToken else { return nil }
        return InstanceOwner(property: file.tokens[name].text, path: path, type: type)
    }

    /// The edits that make the record a `let` assigned `expression` in each designated initializer, and
    /// their diagnostics; no edit at all when one of them cannot be made.
    func assignInInitializers(
        _ owner: InstanceOwner, expression: String, record: (line: Int, text: String, prefix: String, suffix: String),
        edits: inout [ApplyPlan.LineEdit]
    ) -> [Diagnostic] {
        guard let source = sources[owner.path] else { return [] }
        let file = source.file, lines = source.lines
        let assignment = "self.confinement = \(expression)"
        func at(_ line: Int, _ column: Int, _ severity: Diagnostic.Severity, _ message: String) -> Diagnostic {
            Diagnostic(path: owner.path, line: line, column: column, severity: severity, message: message)
        }
        let held = "'\(owner.property)' is an instance property of '\(owner.type.qualifiedName)', which the record's initial value cannot name"
        // `let confinement = ` (or `let confinement: Confinement = `) loses its initial value.
        var head = String(record.prefix.reversed().drop(while: \.isWhitespace).reversed())
        guard head.hasSuffix("=") else {
            return [at(record.line, 1, .warning, "\(held), and the record's line is not '<modifiers> let confinement = Confinement.observed()': write '\(assignment)' in each designated initializer by hand; no edit")]
        }
        head = String(head.dropLast().reversed().drop(while: \.isWhitespace).reversed())
        if head.hasSuffix("confinement") { head += ": Confinement" }
        guard head.hasSuffix("confinement: Confinement") else {
            return [at(record.line, 1, .warning, "\(held), and the record's declaration is not 'let confinement': write '\(assignment)' in each designated initializer by hand; no edit")]
        }
        let declaration = head.drop(while: \.isWhitespace)
        var planned: [ApplyPlan.LineEdit] = []
        var notes: [Diagnostic] = []
        let initializers = file.members(open: owner.type.openBrace, close: owner.type.closeBrace).filter {
            $0.kind == .initializer && !$0.modifiers.contains("convenience")
        }
        let indentation = String(record.text.prefix { $0 == " " || $0 == "\t" })
        var recordText = head + record.suffix
        if initializers.isEmpty {
            if let superclass = possibleSuperclass(of: owner.type, in: file) {
                return [at(record.line, 1, .warning, "\(held); '\(owner.type.qualifiedName)' declares no initializer, and '\(superclass)' may be a superclass whose initializers it inherits (declaring one would stop that): write '\(assignment)' in its initializers by hand; no edit")]
            }
            let step = indentation.contains("\t" as Character) ? "\t" : "    "
            recordText += "\n\(indentation)init() {\n\(indentation)\(step)\(assignment)\n\(indentation)}"
            notes.append(at(record.line, 1, .note, "fix-it: declare 'init()' (the class has none, so the compiler made this one) assigning '\(expression)'"))
        }
        for initializer in initializers {
            let named = "'\(file.displayName(of: initializer))'"
            let start = file.tokens[initializer.keyword]
            guard let body = initializer.body else {
                return [at(start.line + 1, start.column + 1, .warning, "\(held), and the scan finds no body for \(named): write '\(assignment)' first in it by hand; no edit")]
            }
            let brace = file.tokens[body.open], next = file.tokens[body.open + 1]
            let line = brace.line + 1
            guard !edits.contains(where: { $0.path == owner.path && $0.line == line }), line != record.line else {
                return [at(line, brace.column + 1, .warning, "\(held), and another edit changes the line of \(named)'s '{': write '\(assignment)' first in it by hand; no edit")]
            }
            let text = lines[brace.line]
            let new: String
            if next.line > brace.line {
                let inner = body.open + 1 == body.close
                    ? String(text.prefix { $0 == " " || $0 == "\t" }) + "    "
                    : String(lines[next.line].prefix { $0 == " " || $0 == "\t" })
                new = text + "\n" + inner + assignment
            } else {
                // The body starts on the brace's line: the assignment goes right after the brace.
                let bytes = Array(text.utf8), cut = brace.column + 1
                let rest = String(decoding: bytes[cut...], as: UTF8.self)
                let separator = body.open + 1 == body.close ? " " : "; "
                new = String(decoding: bytes[..<cut], as: UTF8.self) + " " + assignment + separator + rest.drop { $0 == " " }
            }
            planned.append(.init(path: owner.path, line: line, old: text, new: new))
            notes.append(at(line, brace.column + 1, .note, "fix-it: insert '\(assignment)' first in \(named)"))
        }
        edits.append(.init(path: owner.path, line: record.line, old: record.text, new: recordText))
        edits += planned
        return [at(record.line, record.prefix.utf8.count + 1, .note, "fix-it: declare '\(declaration)' without an initial value, assigned in each designated initializer: \(held), set before any initializer's body runs")] + notes
    }

    /// The first inherited name when it may be a superclass: not a protocol the sources declare nor a
    /// well-known one.
    private func possibleSuperclass(of type: TypeDeclaration, in file: SourceFile) -> String? {
        guard let first = type.inheritedNames(in: file).first, !Self.knownProtocols.contains(first) else { return nil }
        let declaredProtocol = sources.values.contains { source in
            source.file.typeDeclarations().contains { $0.kind == .protocol && ($0.qualifiedName == first || $0.name == first) }
        }
        return declaredProtocol ? nil : first
    }
}
