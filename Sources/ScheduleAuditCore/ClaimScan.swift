/// A Swift 6 concurrency claim written in the sources that an observed run can test.
struct Claim: Equatable, Sendable {
    enum Kind: String, Sendable {
        /// A class declared `@unchecked Sendable` with a stored `var` and no lock.
        case uncheckedSendable
        /// A `nonisolated(unsafe)` variable.
        case nonisolatedUnsafe
        /// A call to `assumeIsolated`.
        case assumeIsolated
    }

    var kind: Kind
    var path: String
    /// 1-based, as compilers print them.
    var line: Int
    var column: Int
    var message: String
    /// The class whose observed instances test the claim (qualified, and simple), when there is one.
    var observedType: (qualified: String, simple: String)?
    /// Why no run can test the claim, when no class's instances do (`observedType` is nil).
    var unobservable: String? = nil

    static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.kind, lhs.path, lhs.line, lhs.column, lhs.message) == (rhs.kind, rhs.path, rhs.line, rhs.column, rhs.message)
    }
}

/// Finds the claims in a set of source files.
enum ClaimScan {
    /// Whether an identifier in a stored property's declaration (its type or initializer) names a lock:
    /// a type whose name contains `Lock` or `Mutex` (`NSLock`, `NSRecursiveLock`, `NIOLock`,
    /// `NIOLockedValueBox`, `OSAllocatedUnfairLock`, `Mutex`, `LockedValue`), the C locks, or a dispatch
    /// queue or semaphore, which such classes use as locks (`queue.sync { … }`).
    static func namesLock(_ identifier: String) -> Bool {
        identifier.hasSubstring("Lock") || identifier.hasSubstring("Mutex") || cLocksAndQueues.contains(identifier)
    }

    private static let cLocksAndQueues: Set<String> = [
        "os_unfair_lock", "os_unfair_lock_s", "pthread_mutex_t", "pthread_rwlock_t", "DispatchQueue",
        "DispatchSemaphore", "NSCondition",
    ]

    static func claims(in sources: [(path: String, text: String)]) -> [Claim] {
        let files = sources.map { SourceFile(path: $0.path, text: $0.text) }
        let declared = files.indices.flatMap { index in files[index].typeDeclarations().map { (file: index, declaration: $0) } }
        var claims: [Claim] = []
        for (index, type) in declared where type.kind == .class {
            let file = files[index]
            let marked = declared.filter { $0.declaration.qualifiedName == type.qualifiedName && ($0.declaration.kind == .class || $0.declaration.kind == .extension) }
            guard marked.contains(where: { $0.declaration.inheritedNames(in: files[$0.file]).contains("@unchecked Sendable") }) else { continue }
            let members = file.members(open: type.openBrace, close: type.closeBrace)
            let stored = members.filter { $0.kind == .variable && !$0.isTypeMember && $0.computedAccessors == nil }
            guard !stored.isEmpty else { continue }
            let lock = members.first { member in
                (member.kind == .variable || member.kind == .constant) && member.computedAccessors == nil
                    && file.tokens[(member.keyword + 2)..<max(member.keyword + 2, member.end)].contains { $0.kind == .identifier && namesLock($0.text) }
            }
            guard lock == nil else { continue }
            let names = stored.compactMap { $0.nameToken.map { "'\(file.tokens[$0].text)'" } }.joined(separator: ", ")
            let site = AdoptionPlan.position(type.nameToken, in: file)
            claims.append(Claim(
                kind: .uncheckedSendable, path: file.path, line: site.line, column: site.column,
                message: "class '\(type.qualifiedName)' is @unchecked Sendable with mutable stored state (\(names)) and no lock: its instances are claimed to be used by one context at a time",
                observedType: (type.qualifiedName, type.name)
            ))
        }
        for file in files {
            claims += nonisolatedUnsafe(in: file, declared: declared, files: files) + assumeIsolated(in: file)
        }
        return claims.sorted { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
    }

    /// Each `nonisolated(unsafe) var|let name`, with the type it holds when the sources declare it.
    private static func nonisolatedUnsafe(
        in file: SourceFile, declared: [(file: Int, declaration: TypeDeclaration)], files: [SourceFile]
    ) -> [Claim] {
        let tokens = file.tokens
        var claims: [Claim] = []
        for index in tokens.indices where tokens[index].isIdentifier("nonisolated") && index + 3 < tokens.count
            && tokens[index + 1].isPunctuation("(") && tokens[index + 2].isIdentifier("unsafe") && tokens[index + 3].isPunctuation(")") {
            // The modifiers after it (`private(set)` with its argument), then `var` or `let` and the name.
            var keyword = index + 4
            while let next = file.modifierEnd(at: keyword) { keyword = next }
            guard keyword + 1 < tokens.count, tokens[keyword].isIdentifier("var") || tokens[keyword].isIdentifier("let") else { continue }
            let name = tokens[keyword + 1].text
            var held = "the sources do not declare its type"
            var observed: (String, String)?
            var unobservable = "the sources do not declare its type, so no class of theirs with a record holds it; observe mode records uses of recorded class instances, never of a variable"
            if let typeName = heldTypeName(after: keyword + 1, in: file),
                let type = declared.first(where: { $0.declaration.kind != .extension && ($0.declaration.qualifiedName == typeName || $0.declaration.name == typeName) }) {
                let kind = type.declaration.kind
                if kind == .class {
                    held = "it holds an instance of class '\(type.declaration.qualifiedName)', claimed to be used by one context at a time"
                    observed = (type.declaration.qualifiedName, type.declaration.name)
                } else {
                    let article = kind == .enum || kind == .actor ? "an" : "a"
                    held = "it holds \(article) \(kind.rawValue) '\(type.declaration.qualifiedName)', not a class instance"
                    unobservable = "it holds \(article) \(kind.rawValue), which has no Confinement record; observe mode records uses of recorded class instances, never of a variable"
                }
            }
            let site = AdoptionPlan.position(index, in: file)
            claims.append(Claim(
                kind: .nonisolatedUnsafe, path: file.path, line: site.line, column: site.column,
                message: "nonisolated(unsafe) \(tokens[keyword].text) '\(name)' is claimed to be used safely without isolation; \(held)",
                observedType: observed, unobservable: observed == nil ? unobservable : nil
            ))
        }
        return claims
    }

    /// The type a variable holds: its annotation's first name (`: Cache`, `: Cache?`), else the type
    /// its initializer constructs or reads a member of (`= Cache()`, `= Cache.shared`).
    private static func heldTypeName(after name: Int, in file: SourceFile) -> String? {
        let tokens = file.tokens
        guard name + 2 < tokens.count else { return nil }
        if tokens[name + 1].isPunctuation(":"), tokens[name + 2].kind == .identifier { return tokens[name + 2].text }
        if tokens[name + 1].isPunctuation("="), tokens[name + 2].kind == .identifier, name + 3 < tokens.count,
            tokens[name + 3].isPunctuation("(") || tokens[name + 3].isPunctuation(".") {
            return tokens[name + 2].text
        }
        return nil
    }

    /// Each `.assumeIsolated` call, with what it claims to be isolated to.
    private static func assumeIsolated(in file: SourceFile) -> [Claim] {
        let tokens = file.tokens
        return tokens.indices.compactMap { index in
            // A call: `.assumeIsolated {` or `.assumeIsolated(`; not an enum case of the same name.
            guard tokens[index].isIdentifier("assumeIsolated"), index > 0, tokens[index - 1].isPunctuation("."),
                index + 1 < tokens.count, tokens[index + 1].isPunctuation("{") || tokens[index + 1].isPunctuation("(")
            else { return nil }
            let receiver = index > 1 && tokens[index - 2].kind == .identifier ? "'\(tokens[index - 2].text)'" : "an actor"
            let site = AdoptionPlan.position(index, in: file)
            return Claim(
                kind: .assumeIsolated, path: file.path, line: site.line, column: site.column,
                message: "code here is claimed to run isolated to \(receiver) (assumeIsolated traps when it does not)",
                observedType: nil,
                unobservable: "observe mode records the contexts of confined objects' uses, not actor isolation; assumeIsolated checks this claim itself, trapping where it does not hold"
            )
        }
    }
}
