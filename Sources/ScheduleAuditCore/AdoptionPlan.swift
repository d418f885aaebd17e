/// What `adopt` proposes for one class: the insertions in each file that make it observable, and a
/// note for each edit and each member left as it is.
struct AdoptionPlan: Sendable {
    /// One diagnostic line: 1-based line and UTF-8 column, as compilers print them.
    struct Note: Equatable, Sendable {
        var path: String
        var line: Int
        var column: Int
        var message: String

        var rendered: String { "\(path):\(line):\(column): note: \(message)" }
    }

    /// Notes in source order: edits and skipped members.
    var notes: [Note] = []
    /// The files that change, with their new text.
    var files: [EditedSource] = []
    /// How many edits the plan makes.
    var editCount = 0

    /// The statement added as the class's first member: owner unknown, observe each instance.
    static let observeRecord = "let confinement = Confinement.observed()"
    static let guardStatement = "assertIsolated()"
    static let wrapperNames: Set<String> = ["Confined", "ScheduleProtected"]
    /// Attributes the compiler refuses beside a property wrapper.
    static let unwrappableAttributes: Set<String> = ["NSManaged", "NSCopying", "IBOutlet", "IBInspectable", "GKInspectable"]

    /// Plans the adoption of the class named `typeName` (simple, or qualified as `Outer.Inner`).
    ///
    /// - Throws: ``AuditError`` when no type or several types have that name, or when it is not a class.
    init(typeName: String, files sources: [(path: String, text: String)]) throws {
        let files = sources.map { SourceFile(path: $0.path, text: $0.text) }
        let declared = files.indices.flatMap { file in files[file].typeDeclarations().map { (file: file, declaration: $0) } }
        let types = declared.filter { $0.declaration.kind != .extension }
        // A name as Swift resolves it from outside: `Worker` is the top-level one when there is one (a
        // nested `Outer.Worker` is then named by its path); otherwise any type whose path ends with it.
        let exact = types.filter { $0.declaration.qualifiedName == typeName }
        let matches = exact.count == 1 ? exact : types.filter {
            $0.declaration.qualifiedName == typeName || $0.declaration.qualifiedName.hasSuffix("." + typeName)
        }
        guard let match = matches.first else {
            let names = types.filter { $0.declaration.kind == .class }.map(\.declaration.qualifiedName)
            let hint = NameSuggestion.closest(to: typeName, in: names).map { "; did you mean '\($0)'?" } ?? ""
            throw AuditError("no class named '\(typeName)' in the sources\(hint)")
        }
        guard matches.count == 1 else {
            let sites = matches.map { "\(files[$0.file].path):\(files[$0.file].tokens[$0.declaration.nameToken].line + 1) ('\($0.declaration.qualifiedName)')" }
            throw AuditError("'\(typeName)' is ambiguous: declared at \(sites.joined(separator: ", ")); name it with its enclosing type")
        }
        let file = files[match.file]
        let type = match.declaration
        guard type.kind == .class else {
            let why = type.kind == .actor
                ? "an actor isolates its state already; the compiler checks it"
                : "ConfinedObject is a class protocol (a \(type.kind.rawValue) is a value or a requirement, not an object with an owner)"
            throw AuditError("'\(type.qualifiedName)' is \(type.kind == .enum || type.kind == .actor ? "an" : "a") \(type.kind.rawValue), not a class: \(why)")
        }
        if let actor = file.attributes(before: type.keyword).first(where: { $0.hasSuffix("Actor") }) {
            throw AuditError(Self.globalActorRefusal(type, actor: actor, in: file))
        }
        let site = Self.position(type.nameToken, in: file)
        if let how = Self.conformance(of: type, in: file, declared: declared, files: files, seen: []) {
            notes.append(Note(path: file.path, line: site.line, column: site.column, message: "'\(type.qualifiedName)' already conforms to ConfinedObject (\(how)); nothing to adopt"))
            return
        }
        // A subclass that conforms already declares its own `confinement`: the superclass's would make
        // that an override of a stored property and its conformance redundant.
        let subclasses = declared.filter { other in
            other.declaration.kind == .class
                && other.declaration.inheritedNames(in: files[other.file]).first.map { $0 == type.qualifiedName || $0 == type.name } == true
                && Self.conformance(of: other.declaration, in: files[other.file], declared: declared, files: files, seen: []) != nil
        }
        if !subclasses.isEmpty {
            let names = subclasses.map { "'\($0.declaration.qualifiedName)' (\(files[$0.file].path):\(files[$0.file].tokens[$0.declaration.nameToken].line + 1))" }
            throw AuditError("'\(type.qualifiedName)' has subclasses that conform to ConfinedObject already: \(names.joined(separator: ", ")); their 'confinement' would override the one adopt adds. Adopt the superclass first, or leave it")
        }
        var edits: [String: [SourceInsertion]] = [:]
        func add(_ insertion: SourceInsertion, in file: SourceFile, at token: Int, _ message: String) {
            edits[file.path, default: []].append(insertion)
            let position = Self.position(token, in: file)
            notes.append(Note(path: file.path, line: position.line, column: position.column, message: message))
            editCount += 1
        }
        func skip(_ token: Int, in file: SourceFile, _ message: String) {
            let position = Self.position(token, in: file)
            notes.append(Note(path: file.path, line: position.line, column: position.column, message: message))
        }
        let lines = Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0.text.components(separatedBy: "\n")) })
        let end = Self.endColumn(of: type.headEnd, in: file, lines: lines[file.path] ?? [])
        let clause = type.inheritance.isEmpty ? ": ConfinedObject" : ", ConfinedObject"
        let headLine = file.tokens[type.headEnd].line
        add(SourceInsertion(line: headLine, column: end, text: clause), in: file, at: type.nameToken,
            "add ConfinedObject to the inheritance clause of '\(type.qualifiedName)'")
        if !file.imports("Schedulable") {
            let text = lines[file.path] ?? []
            let insertion: SourceInsertion
            if let last = file.lastImportLine() {
                insertion = SourceInsertion(line: last + 1, column: 0, text: "import Schedulable\n")
            } else {
                // Before the first declaration and the comment lines right above it (its documentation),
                // after a header that a blank line separates.
                var line = file.tokens.first?.line ?? 0
                while line > 0, ["//", "/*", "*"].contains(where: text[line - 1].drop(while: \.isWhitespace).hasPrefix) {
                    line -= 1
                }
                insertion = SourceInsertion(line: line, column: 0, text: "import Schedulable\n\n")
            }
            add(insertion, in: file, at: type.keyword, "add 'import Schedulable' (the file does not import it)")
        }
        let members = file.members(open: type.openBrace, close: type.closeBrace)
        if let existing = members.first(where: { $0.nameToken.map { file.tokens[$0].text } == "confinement" && ($0.kind == .variable || $0.kind == .constant) }) {
            skip(existing.keyword, in: file, "'confinement' is declared already: kept as it is (it must be a 'let' of type Confinement)")
        } else {
            // A public or open class's requirement must be as visible as the class.
            let record = (Self.isPublic(type.keyword, in: file) ? "public " : "") + Self.observeRecord
            let insertion = Self.firstStatement(record, open: type.openBrace, close: type.closeBrace, in: file, lines: lines[file.path] ?? [])
            add(insertion, in: file, at: type.openBrace, "add '\(Self.observeRecord)' as the first member: owner unknown, observe each instance")
        }
        for member in members where member.nameToken.map({ file.tokens[$0].text }) != "confinement" {
            if let reason = Self.skipReason(forStored: member, in: file) {
                if let reason { skip(member.nameToken ?? member.keyword, in: file, reason) }
                continue
            }
            let column = file.tokens[Self.firstModifier(of: member, in: file)].column
            let line = file.tokens[Self.firstModifier(of: member, in: file)].line
            add(SourceInsertion(line: line, column: column, text: "@Confined "), in: file, at: member.nameToken ?? member.keyword,
                "wrap stored property '\(file.displayName(of: member))' in @Confined")
        }
        // Methods in the class body and in extensions of it anywhere in the sources.
        let extensions = declared.filter {
            $0.declaration.kind == .extension && ($0.declaration.qualifiedName == type.qualifiedName)
        }
        for (index, body) in [(match.file, type)] + extensions.map({ ($0.file, $0.declaration) }) {
            let source = files[index]
            for member in source.members(open: body.openBrace, close: body.closeBrace) {
                if let reason = Self.skipReason(forMethod: member, in: source) {
                    if let reason { skip(member.nameToken ?? member.keyword, in: source, reason) }
                    continue
                }
                guard let braces = member.body else { continue }
                let placement = source.guardPlacement(of: member)
                if case .refused(let reason) = placement {
                    skip(member.nameToken ?? member.keyword, in: source, "skipped '\(source.displayName(of: member))': \(reason)")
                    continue
                }
                let insertion = Self.firstStatement(Self.guardStatement, open: braces.open, close: braces.close, in: source, lines: lines[source.path] ?? [])
                var message = "guard method '\(source.displayName(of: member))' with \(Self.guardStatement)"
                if case .firstWithReturn(let expressions) = placement {
                    // The body was one expression returned implicitly; after the guard it needs `return`.
                    for expression in expressions {
                        let token = source.tokens[expression]
                        edits[source.path, default: []].append(SourceInsertion(line: token.line, column: token.column, text: "return "))
                    }
                    message += ", and 'return' before the expression the body returned implicitly"
                }
                add(insertion, in: source, at: member.nameToken ?? member.keyword, message)
            }
        }
        notes.sort { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
        self.files = sources.compactMap { source in
            edits[source.path].map { EditedSource(path: source.path, text: source.text, insertions: $0) }
        }
    }

    /// Why a class isolated to a global actor is not adopted, and what of it is left to check: the
    /// compiler checks its isolated members (and Swift 6 checks them again at run time), so it takes
    /// no confinement; only `nonisolated(unsafe)` stored properties opt out of that, and they are
    /// checked with `SchedulerBound(…, owner: MainThreadScheduler.shared)`, which a property wrapper
    /// there cannot be (the team's one answer for `@MainActor` classes).
    static func globalActorRefusal(_ type: TypeDeclaration, actor: String, in file: SourceFile) -> String {
        let unsafe = file.members(open: type.openBrace, close: type.closeBrace).filter { member in
            member.kind == .variable && !member.isTypeMember && member.computedAccessors == nil
                && member.modifiers.contains("nonisolated(unsafe)")
        }.compactMap { $0.nameToken.map { "'\(file.tokens[$0].text)'" } }
        var message = "'\(type.qualifiedName)' is isolated to @\(actor), which the compiler checks (and Swift 6 again at run time); it takes no confinement, and its isolated members could not satisfy ConfinedObject's nonisolated 'confinement'"
        if unsafe.isEmpty { return message }
        let owner = actor == "MainActor" ? "MainThreadScheduler.shared" : "<its scheduler>"
        message += "; its nonisolated(unsafe) \(unsafe.count == 1 ? "property" : "properties") \(unsafe.joined(separator: ", ")) opt out of that check: hold each value in SchedulerBound(<value>, owner: \(owner)), checked in every build (Getting Started, 'A @MainActor class')"
        return message
    }

    /// How the class already conforms, or `nil`: `ConfinedObject` in its inheritance clause or an
    /// extension's, or a superclass or refining protocol in the sources that conforms.
    private static func conformance(
        of type: TypeDeclaration, in file: SourceFile, declared: [(file: Int, declaration: TypeDeclaration)],
        files: [SourceFile], seen: Set<String>
    ) -> String? {
        let protocolNames: Set<String> = ["ConfinedObject", "Schedulable.ConfinedObject"]
        if type.inheritedNames(in: file).contains(where: protocolNames.contains) { return "declared on the class" }
        for (index, other) in declared where other.kind == .extension && other.qualifiedName == type.qualifiedName {
            if other.inheritedNames(in: files[index]).contains(where: protocolNames.contains) {
                return "declared in an extension in \(files[index].path)"
            }
        }
        // A superclass, or a protocol that refines ConfinedObject, declared in the sources.
        for name in type.inheritedNames(in: file) where !seen.contains(name) {
            guard let parent = declared.first(where: {
                ($0.declaration.kind == .class || $0.declaration.kind == .protocol) && $0.declaration.qualifiedName == name
            }) else { continue }
            if conformance(of: parent.declaration, in: files[parent.file], declared: declared, files: files, seen: seen.union([name])) != nil {
                return "inherited from '\(name)'"
            }
        }
        return nil
    }

    /// The first modifier or keyword of a member, after its attributes: where `@Confined ` goes.
    private static func firstModifier(of member: MemberDeclaration, in file: SourceFile) -> Int {
        var index = member.start
        while index < member.keyword, file.tokens[index].isPunctuation("@") {
            index += 2
            if index < member.keyword, file.tokens[index].isPunctuation("("), let close = file.matchingClose(index) { index = close + 1 }
        }
        return index
    }

    /// The insertion that makes `statement` the first one in the braces at `open` and `close`: a line of
    /// its own, indented like the body, when the body starts on a later line; `{}` opened onto lines;
    /// else on the brace's line, ended by `;`.
    private static func firstStatement(_ statement: String, open: Int, close: Int, in file: SourceFile, lines: [String]) -> SourceInsertion {
        let brace = file.tokens[open]
        let next = file.tokens[open + 1]
        func indent(_ line: Int) -> String { String(lines[line].prefix { $0 == " " || $0 == "\t" }) }
        if next.line > brace.line {
            let indentation = open + 1 == close ? indent(next.line) + "    " : indent(next.line)
            return SourceInsertion(line: brace.line + 1, column: 0, text: indentation + statement + "\n")
        }
        if open + 1 == close, file.tokens[close].line == brace.line, file.tokens[close].column == brace.column + 1 {
            // `{}`: opened onto lines of its own.
            return SourceInsertion(line: brace.line, column: brace.column + 1,
                                   text: "\n" + indent(brace.line) + "    " + statement + "\n" + indent(brace.line))
        }
        return SourceInsertion(line: brace.line, column: brace.column + 1, text: " " + statement + ";")
    }

    /// Whether the declaration whose keyword is `keyword` is `public` or `open` (its modifiers, read
    /// backwards from the keyword).
    private static func isPublic(_ keyword: Int, in file: SourceFile) -> Bool {
        let modifiers: Set<String> = ["public", "open", "final", "internal", "package", "nonisolated", "indirect"]
        var index = keyword - 1
        while index >= 0, modifiers.contains(file.tokens[index].text) {
            if file.tokens[index].text == "public" || file.tokens[index].text == "open" { return true }
            index -= 1
        }
        return false
    }

    /// 1-based line and column of a token.
    static func position(_ token: Int, in file: SourceFile) -> (line: Int, column: Int) {
        (file.tokens[token].line + 1, file.tokens[token].column + 1)
    }

    /// The UTF-8 column just after a token (a backticked name is two bytes longer than its text).
    private static func endColumn(of token: Int, in file: SourceFile, lines: [String]) -> Int {
        let found = file.tokens[token]
        let line = Array(lines[found.line].utf8)
        let ticks = found.column < line.count && line[found.column] == UInt8(ascii: "`") ? 2 : 0
        return found.column + found.text.utf8.count + ticks
    }
}
