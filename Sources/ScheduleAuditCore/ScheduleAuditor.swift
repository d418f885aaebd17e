import Foundation

/// Audits one module's `ConfinedObject` classes for members the runtime checks cannot see.
///
/// The symbol graph says which classes adopt the protocol, which members they have, how each property
/// is declared (`@Confined var x: Int`) and where. A scan of the source at those locations
/// answers what the graph does not: whether a `var` is stored or computed, whether a method body calls
/// a guard, and which names the type's include/exclude options list. `private` and `fileprivate`
/// members are in the graph without a location; the scan finds their declarations in the class's
/// body.
///
/// Findings:
/// - ``AuditFinding/Kind/unprotectedStoredProperty``: a stored `var` (plain, `lazy`, `weak`, or with
///   observers; `private` and `fileprivate` ones too) without `@Confined` (or its alias
///   `@ScheduleProtected`). Computed properties have no storage and are skipped.
/// - ``AuditFinding/Kind/unguardedMethod``: an instance method whose body never mentions
///   `assertIsolated`, `preconditionIsolated` or `isIsolated`, classified as `adopt` classifies it
///   (`MethodClassification`): `private`/`fileprivate` methods are skipped (only the type's own
///   members can call them, and those are audited), and so are entry points, whose body is one hop
///   onto the owner (a guard there would run outside it). Initializers are skipped: constructing on
///   one thread for an owner elsewhere is allowed.
/// - ``AuditFinding/Kind/staleOptionEntry``: an include/exclude entry naming no member of its type
///   (or its superclasses in the graphs).
/// - ``AuditFinding/Kind/nonSendableReferenceLet``: a `let` whose type names a class (or class-bound
///   protocol) that is not `Sendable`. Protectable classes check themselves and are not reported.
/// - ``AuditFinding/Kind/fixedOwnerChanged``: a `handOff(to:)` or `detach()` in the class's own methods
///   (on `self`, implicitly or not, or on its `confinement`) while `confinement` is declared with a fixed
///   owner (`Confinement(owner:)`, `Confinement()`, their options forms). Transfers made from outside
///   the class are not seen (a scan has no types); the run-time report names them.
///
/// A member is deliberately unchecked — and not reported — when an exclude list names it
/// (`.exclude(.property(\T.x))`, `.excluding(.method("f()"))`) or when a comment containing
/// `schedule-audit:ignore` sits on its declaration line or the line above.
public struct ScheduleAuditor: Sendable {
    private let moduleGraphs: [SymbolGraph]
    private let contextGraphs: [SymbolGraph]
    private let extraSourcePaths: [String]
    private let readSource: @Sendable (String) -> String?

    /// Creates an auditor.
    /// - Parameters:
    ///   - moduleGraphs: The audited module's graph and its extension graphs (`Module@Other`).
    ///   - contextGraphs: Graphs of dependencies, read only for facts about types (is a class `Sendable`,
    ///     does a superclass adopt the protocol); their classes are not audited.
    ///   - extraSourcePaths: Source files to scan for option entries besides those the graphs point to.
    ///   - readSource: Returns a file's text; the default reads from disk. Tests substitute fixtures.
    public init(
        moduleGraphs: [SymbolGraph],
        contextGraphs: [SymbolGraph] = [],
        extraSourcePaths: [String] = [],
        readSource: @escaping @Sendable (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
    ) {
        self.moduleGraphs = moduleGraphs
        self.contextGraphs = contextGraphs
        self.extraSourcePaths = extraSourcePaths
        self.readSource = readSource
    }

    /// Runs the audit.
    /// - Returns: The protectable classes found and the findings, sorted by location.
    public func run() -> AuditReport {
        var context = AuditContext(
            index: SymbolIndex(graphs: moduleGraphs + contextGraphs), readSource: readSource
        )
        let moduleName = moduleGraphs.first?.module.name ?? ""
        // Only classes written in this module are audited; extension graphs (`Module@Other`) describe
        // other modules' types.
        let ownClasses = moduleGraphs.filter { $0.module.name == moduleName }
            .flatMap(\.symbols)
            .filter { $0.kind.identifier == "swift.class" && $0.location != nil }
        let protectable = ownClasses.filter { context.index.adoptsProtectable($0.identifier.precise) }

        let sourcePaths = Set(moduleGraphs.flatMap(\.symbols).compactMap { $0.location?.path } + extraSourcePaths)
        let options = context.scanOptions(paths: sourcePaths.sorted(), moduleName: moduleName)

        var findings: [AuditFinding] = []
        for type in protectable {
            let typeName = type.pathComponents.joined(separator: ".")
            let typeOptions = options.entries.filter { $0.typePath == typeName }
            let usesPredicate = options.predicates.contains { $0.typePath == typeName }
            findings += context.auditMembers(of: type, typeName: typeName, options: typeOptions, usesPredicate: usesPredicate)
            findings += context.auditOptionEntries(of: type, typeName: typeName, entries: typeOptions)
            findings += context.auditTransfers(of: type, typeName: typeName)
        }
        findings.sort { ($0.path, $0.line, $0.column, $0.kind.rawValue) < ($1.path, $1.line, $1.column, $1.kind.rawValue) }
        let names = protectable.map { $0.pathComponents.joined(separator: ".") }.sorted()
        return AuditReport(module: moduleName, protectableTypes: names, findings: findings)
    }
}

/// The audit's working state: the symbol index and the source files read so far.
struct AuditContext {
    let index: SymbolIndex
    let readSource: @Sendable (String) -> String?
    private var files: [String: SourceFile?] = [:]

    init(index: SymbolIndex, readSource: @escaping @Sendable (String) -> String?) {
        self.index = index
        self.readSource = readSource
    }

    mutating func file(_ path: String) -> SourceFile? {
        if let cached = files[path] { return cached }
        let file = readSource(path).map { SourceFile(path: path, text: $0) }
        files[path] = file
        return file
    }

    mutating func scanOptions(paths: [String], moduleName: String) -> (entries: [OptionEntry], predicates: [OptionPredicateUse]) {
        var entries: [OptionEntry] = []
        var predicates: [OptionPredicateUse] = []
        for path in paths {
            guard let file = file(path) else { continue }
            let scanner = OptionEntryScanner(file: file)
            // `\Module.Type.name` names the same type as `\Type.name`.
            entries += scanner.entries.map { entry in
                var entry = entry
                if let typePath = entry.typePath, typePath.hasPrefix(moduleName + ".") {
                    entry.typePath = String(typePath.dropFirst(moduleName.count + 1))
                }
                return entry
            }
            predicates += scanner.predicates
        }
        return (entries, predicates)
    }

    func memberSymbols(of usr: String) -> [SymbolGraph.Symbol] {
        (index.members[usr] ?? []).compactMap { index.symbols[$0] }
    }

    /// Where a property that the graph gives no location is declared: `private` and `fileprivate`
    /// members have none (the compiler records locations only for declarations visible outside their
    /// file), so the type's body is scanned for it. Only properties: a private method is not audited
    /// (its callers are), and a property the body does not declare is not stored — an extension
    /// cannot add storage.
    private mutating func bodyLocation(of member: SymbolGraph.Symbol, in type: SymbolGraph.Symbol) -> SymbolGraph.Symbol.Location? {
        guard member.kind.identifier == "swift.property", let typeLocation = type.location,
              let name = file(typeLocation.path)?.propertyName(
                  member.names.title, inTypeNamedAt: typeLocation.position.line, column: typeLocation.position.character
              )
        else { return nil }
        return SymbolGraph.Symbol.Location(
            uri: typeLocation.uri, position: .init(line: name.line, character: name.column)
        )
    }

    private func isExcluded(_ name: String, property: Bool, in options: [OptionEntry]) -> Bool {
        options.contains { entry in
            guard entry.list == .exclude else { return false }
            switch entry.member {
            case .property(let entryName): return property && entryName == name
            case .method(let entryName): return entryName == name
            }
        }
    }

    mutating func auditMembers(
        of type: SymbolGraph.Symbol, typeName: String, options: [OptionEntry], usesPredicate: Bool
    ) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        for member in memberSymbols(of: type.identifier.precise) {
            // Without the source (unreadable file) the graph still answers the property questions;
            // only body checks and suppression comments need the text.
            guard let location = member.location ?? bodyLocation(of: member, in: type) else { continue }
            let file = file(location.path)
            let (line, column) = (location.position.line, location.position.character)
            if file?.isSuppressed(line: line) == true { continue }
            let name = member.names.title
            func finding(_ kind: AuditFinding.Kind, _ message: String, note: String? = nil) -> AuditFinding {
                AuditFinding(
                    kind: kind, typeName: typeName, member: name, path: location.path, line: line + 1,
                    column: column + 1, message: message, note: note
                )
            }
            let fragments = member.declarationFragments ?? []
            let isVar = fragments.contains { $0.kind == "keyword" && $0.spelling == "var" }
            let isLet = fragments.contains { $0.kind == "keyword" && $0.spelling == "let" }

            switch member.kind.identifier {
            case "swift.property" where isVar:
                let isWrapped = fragments.contains {
                    $0.kind == "attribute"
                        && (SymbolIndex.protectedWrapperUSRs.contains($0.preciseIdentifier ?? "")
                            || SymbolIndex.protectedWrapperNames.contains($0.spelling))
                }
                guard !isWrapped, !isExcluded(name, property: true, in: options) else { continue }
                let storage = file?.propertyStorage(line: line, column: column) ?? .unknown
                // The graph prints `{ get set }` for computed properties but also for `lazy` ones and
                // ones with observers, so it is only the fallback.
                let isStored = storage == .stored || storage == .unknown
                    && (!member.declaration.contains("{ get") || fragments.contains { $0.kind == "keyword" && $0.spelling == "lazy" })
                guard isStored else { continue }
                findings.append(finding(
                    .unprotectedStoredProperty,
                    "stored property '\(name)' of ConfinedObject class '\(typeName)' is not wrapped in @Confined, so accesses from the wrong scheduler go unreported; wrap it, or exclude it with .exclude(.property(\\\(typeName).\(name))) if it is safe by other means"
                ))
            case "swift.property" where isLet:
                guard !isExcluded(name, property: true, in: options),
                      let problem = nonSendableReference(in: fragments)
                else { continue }
                findings.append(finding(
                    .nonSendableReferenceLet,
                    "'let \(name)' of ConfinedObject class '\(typeName)' holds \(problem); its mutable state is reachable from any thread without a check; make the type Sendable, or store it in a @Confined var"
                ))
            case "swift.method":
                // `adopt`'s answer: a guard is asked for only where `adopt` would put one.
                guard member.accessLevel != "private", member.accessLevel != "fileprivate",
                      let file, let declaration = file.member(namedAt: line, column: column),
                      file.classify(method: declaration) == .unguarded,
                      !isExcluded(name, property: false, in: options)
                else { continue }
                findings.append(finding(
                    .unguardedMethod,
                    "method '\(name)' of ConfinedObject class '\(typeName)' never calls assertIsolated(), preconditionIsolated() or isIsolated, so calls from the wrong scheduler go unreported; add a guard, or exclude it with .exclude(.method(\"\(name)\"))",
                    note: optionsNote(method: name, typeName: typeName, options: options, usesPredicate: usesPredicate)
                ))
            default:
                continue
            }
        }
        return findings
    }

    /// Explains how the type's options bear on an unguarded method, since a reader may assume that
    /// listing a method in the options is what protects it.
    private func optionsNote(method: String, typeName: String, options: [OptionEntry], usesPredicate: Bool) -> String? {
        let included = options.contains { $0.list == .include && $0.member == .method(method) }
        if included {
            return "'\(method)' is listed in the include options of '\(typeName)', but options only select which guard calls check; without a guard call the method is never checked"
        }
        if usesPredicate || options.contains(where: { $0.list == .include }) {
            return "'\(typeName)' uses include options\(usesPredicate ? " or a predicate" : ""), which limit checking to the members they select; a guard added here is only active if '\(method)' is selected too"
        }
        if options.contains(where: { $0.list == .exclude }) {
            return "'\(typeName)' uses exclude options; if '\(method)' is meant to run unchecked, list it there to record that"
        }
        return nil
    }

    private func nonSendableReference(in fragments: [SymbolGraph.DeclarationFragment]) -> String? {
        // Only the declared type matters: fragments after the property's name.
        guard let nameIndex = fragments.firstIndex(where: { $0.kind == "identifier" }) else { return nil }
        for fragment in fragments[nameIndex...] where fragment.kind == "typeIdentifier" {
            guard let usr = fragment.preciseIdentifier else { continue }
            switch index.classifyLetType(usr: usr, spelling: fragment.spelling) {
            case .nonSendable:
                return "'\(fragment.spelling)', a reference type that is not Sendable"
            case .unknownSendability(let module):
                return "'\(fragment.spelling)', a class from module '\(module)' that the audit cannot show to be Sendable"
            case .fine:
                continue
            }
        }
        return nil
    }

    func auditOptionEntries(of type: SymbolGraph.Symbol, typeName: String, entries: [OptionEntry]) -> [AuditFinding] {
        let typeUSR = type.identifier.precise
        let candidates = ([typeUSR] + index.ancestors(of: typeUSR)).flatMap(memberSymbols(of:))
        let propertyNames = Set(candidates.filter { $0.kind.identifier == "swift.property" }.map(\.names.title))
        // `#function` inside an accessor spells the property name, so a method entry may name a property.
        let functionNames = Set(candidates.map(\.names.title))
        let methodNames = candidates.filter { $0.kind.identifier == "swift.method" }.map(\.names.title)

        return entries.compactMap { entry in
            let (text, matches, suggestion): (String, Bool, String?)
            switch entry.member {
            case .property(let name):
                text = ".property(\\\(typeName).\(name))"
                matches = propertyNames.contains(name)
                suggestion = NameSuggestion.closest(to: name, in: propertyNames.sorted())
            case .method(let name):
                text = ".method(\"\(name)\")"
                matches = functionNames.contains(name)
                suggestion = NameSuggestion.closest(to: name, in: methodNames)
            }
            guard !matches else { return nil }
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? "; remove it or correct the name"
            return AuditFinding(
                kind: .staleOptionEntry, typeName: typeName, member: text, path: entry.path,
                line: entry.line + 1, column: entry.column + 1,
                message: "\(entry.list.rawValue) entry \(text) matches no member of '\(typeName)' (stale or misspelled)\(hint)",
                note: entry.member.isMethod
                    ? "method entries use the name as #function spells it, with argument labels: 'reset()', 'enqueue(_:)'"
                    : nil
            )
        }
    }
}

extension OptionEntry.Member {
    fileprivate var isMethod: Bool {
        if case .method = self { return true }
        return false
    }
}
