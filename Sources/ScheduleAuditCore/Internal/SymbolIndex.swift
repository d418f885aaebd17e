/// Symbols and relationships of the audited module plus its dependencies, with the type questions
/// the audit asks: does a class adopt `ConfinedObject`, is a type `Sendable`, is it a reference type.
struct SymbolIndex {
    static let protectableProtocolUSR = "s:11Schedulable14ConfinedObjectP"
    static let protectableProtocolName = "Schedulable.ConfinedObject"
    /// The property wrapper that checks a property, under each of its names: `Confined`, and the
    /// design card's `ScheduleProtected`, a typealias the graph names by the alias's own identifier.
    static let protectedWrapperUSRs: Set<String> = ["s:11Schedulable8ConfinedV", "s:11Schedulable17ScheduleProtecteda"]
    /// The same names as spelled in an attribute, for graphs whose fragments carry no identifier.
    static let protectedWrapperNames: Set<String> = ["Confined", "ScheduleProtected"]
    static let sendableUSR = "s:s8SendableP"

    /// Reference types of the toolchain's modules that are `Sendable` (their graphs are not available
    /// to a package plugin). Keyed by module, then type name.
    static let knownSendableClasses: [String: Set<String>] = [
        "Dispatch": [
            "DispatchQueue", "DispatchGroup", "DispatchSemaphore", "DispatchWorkItem", "DispatchObject",
            "DispatchSource", "DispatchIO",
        ],
        "Foundation": [
            "NSLock", "NSRecursiveLock", "NSCondition", "NSConditionLock", "Thread", "ProcessInfo",
            "JSONEncoder", "JSONDecoder", "OperationQueue", "FileManager", "NotificationCenter", "URLSession",
        ],
        "FoundationEssentials": ["JSONEncoder", "JSONDecoder", "ProcessInfo", "FileManager"],
        "_Concurrency": ["Task"],
    ]

    private(set) var symbols: [String: SymbolGraph.Symbol] = [:]
    private var conformances: [String: Set<String>] = [:]  // source -> targets of conformsTo/inheritsFrom(protocol)
    private var superclass: [String: String] = [:]
    private var protocolFallbacks: [String: String] = [:]
    private(set) var members: [String: [String]] = [:]  // type USR -> member USRs, in graph order

    init(graphs: [SymbolGraph]) {
        for graph in graphs {
            for symbol in graph.symbols where symbols[symbol.identifier.precise] == nil {
                symbols[symbol.identifier.precise] = symbol
            }
        }
        for graph in graphs {
            for relation in graph.relationships {
                switch relation.kind {
                case "memberOf":
                    // Members that other modules' protocol extensions supply (`::SYNTHESIZED::`) are not
                    // written in this type and cannot be audited here.
                    guard !relation.source.hasSubstring("::SYNTHESIZED::") else { continue }
                    if members[relation.target]?.contains(relation.source) != true {
                        members[relation.target, default: []].append(relation.source)
                    }
                case "conformsTo":
                    conformances[relation.source, default: []].insert(relation.target)
                    if let fallback = relation.targetFallback { protocolFallbacks[relation.target] = fallback }
                case "inheritsFrom":
                    // Between classes this is the superclass; between protocols, refinement.
                    if symbols[relation.source]?.kind.identifier == "swift.protocol" {
                        conformances[relation.source, default: []].insert(relation.target)
                    } else {
                        superclass[relation.source] = relation.target
                    }
                default:
                    break
                }
            }
        }
    }

    /// The superclass chain of a class, nearest first (only the part the graphs describe).
    func ancestors(of usr: String) -> [String] {
        var chain: [String] = []
        var current = usr
        while let parent = superclass[current], !chain.contains(parent), parent != usr {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// Whether a protocol is `ConfinedObject` or refines it.
    func isProtectableProtocol(_ usr: String, visited: Set<String> = []) -> Bool {
        if usr == Self.protectableProtocolUSR || protocolFallbacks[usr] == Self.protectableProtocolName { return true }
        guard !visited.contains(usr) else { return false }
        return (conformances[usr] ?? []).contains { isProtectableProtocol($0, visited: visited.union([usr])) }
    }

    /// Whether a class adopts `ConfinedObject` directly, through a superclass, or through a protocol
    /// that refines it.
    func adoptsProtectable(_ usr: String) -> Bool {
        ([usr] + ancestors(of: usr)).contains { type in
            (conformances[type] ?? []).contains { isProtectableProtocol($0) }
        }
    }

    /// Whether a type or protocol is known to be `Sendable` (declared, implied by a global actor or an
    /// actor, inherited from a superclass, or refined by a protocol).
    func isKnownSendable(_ usr: String, visited: Set<String> = []) -> Bool {
        guard !visited.contains(usr) else { return false }
        if usr == Self.sendableUSR { return true }
        let direct = conformances[usr] ?? []
        if direct.contains(Self.sendableUSR) { return true }
        let next = visited.union([usr])
        if direct.contains(where: { symbols[$0]?.kind.identifier == "swift.protocol" && isKnownSendable($0, visited: next) }) {
            return true
        }
        if let parent = superclass[usr], isKnownSendable(parent, visited: next) { return true }
        return false
    }

    /// How the audit classifies a type named in a `let` declaration.
    enum ReferenceKind: Equatable {
        /// A class or class-bound protocol the graphs show is not `Sendable`.
        case nonSendable
        /// A class of a module whose graph is not available and that is not in the known list.
        case unknownSendability(module: String)
        /// A value type, a `Sendable` reference type, or a self-checking protectable class.
        case fine
    }

    func classifyLetType(usr: String, spelling: String) -> ReferenceKind {
        if let symbol = symbols[usr] {
            switch symbol.kind.identifier {
            case "swift.class":
                // A protectable class checks its own members; reaching it without a check is fine.
                if isKnownSendable(usr) || adoptsProtectable(usr) { return .fine }
                return .nonSendable
            case "swift.protocol":
                let isClassBound = symbol.declaration.hasSubstring("AnyObject")
                if isClassBound && !isKnownSendable(usr) && !isProtectableProtocol(usr) { return .nonSendable }
                return .fine
            default:
                return .fine
            }
        }
        // A Swift USR `s:<length><module>…C` names a class; other kinds (V, O, P, generic parameters)
        // are value types or cannot be decided, and are left alone.
        guard usr.hasPrefix("s:"), usr.hasSuffix("C"), let module = Self.moduleName(ofUSR: usr) else { return .fine }
        if Self.knownSendableClasses[module]?.contains(spelling) == true { return .fine }
        return .unknownSendability(module: module)
    }

    /// The module name encoded at the start of a Swift USR (`s:8Dispatch…` → `Dispatch`).
    static func moduleName(ofUSR usr: String) -> String? {
        var rest = usr.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard let length = Int(digits), length > 0 else {
            // Standard-library USRs (`s:Si`, `s:SS`) carry no module length.
            return nil
        }
        rest = rest.dropFirst(digits.count)
        guard rest.count >= length else { return nil }
        return String(rest.prefix(length))
    }
}
