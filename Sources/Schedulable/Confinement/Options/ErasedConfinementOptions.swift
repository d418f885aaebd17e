/// The options of one object, without the object's type (it is stored in the non-generic
/// ``Confinement``).
@usableFromInline
package struct ErasedConfinementOptions: Sendable {
    package struct Members: Sendable {
        var properties: [PropertyProbe] = []
        var methods: Set<String> = []
    }

    /// Which wrapper storages (by declaration site) the property entries reach, once probed.
    package struct ResolvedProperties: Sendable {
        var included: Set<PackedCodeLocation> = []
        var excluded: Set<PackedCodeLocation> = []
    }

    package var includesEverything = true
    package var included = Members()
    package var excluded = Members()
    package var predicates: [@Sendable (String) -> Bool] = []

    package var isDefault: Bool {
        includesEverything && excluded.properties.isEmpty && excluded.methods.isEmpty
    }

    /// Whether property entries must be matched to wrappers before options can be applied to them.
    package var hasPropertyEntries: Bool {
        !included.properties.isEmpty || !excluded.properties.isEmpty
    }

    mutating func add<Object>(_ members: [ConfinedMember<Object>], to list: WritableKeyPath<Self, Members>) {
        for member in members {
            switch member.storage {
            case .property(let probe): self[keyPath: list].properties.append(probe)
            case .method(let name): self[keyPath: list].methods.insert(name)
            }
        }
    }

    /// Whether a violation on `member` is reported. Property entries not yet matched to wrappers
    /// (`resolved == nil`) cannot exclude anything, so such a violation is reported.
    package func checks(_ member: ConfinedMemberReference, resolved: ResolvedProperties?) -> Bool {
        if isDefault { return true }
        switch member {
        case .property(_, let declaredAt):
            if resolved?.excluded.contains(declaredAt) == true { return false }
            if includesEverything { return true }
            if resolved?.included.contains(declaredAt) == true { return true }
        case .accessor:
            // Boxes have no options: every access to their value is checked.
            return true
        case .method(let method, _):
            let method = String(describing: method)
            if excluded.methods.contains(method) { return false }
            if includesEverything { return true }
            if included.methods.contains(method) { return true }
        }
        let name = member.displayName
        return predicates.contains { $0(name) }
    }

    /// The property entries matched from what earlier probes found (``PropertyProbe/cachedSite``),
    /// or `nil` unless every entry has been probed before.
    func resolvedFromEarlierProbes() -> ResolvedProperties? {
        var resolved = ResolvedProperties()
        for probe in included.properties {
            guard let site = probe.cachedSite else { return nil }
            resolved.included.insert(site)
        }
        for probe in excluded.properties {
            guard let site = probe.cachedSite else { return nil }
            resolved.excluded.insert(site)
        }
        return resolved
    }
}
