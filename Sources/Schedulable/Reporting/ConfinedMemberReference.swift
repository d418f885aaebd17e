/// Which member a check is for, resolved only on the slow path.
@usableFromInline
package enum ConfinedMemberReference {
    /// A `@Confined` property: its given name (if any) and declaration site.
    case property(name: String?, declaredAt: PackedCodeLocation)
    /// A method guard: `#function` and the guard's location.
    case method(StaticString, callSite: PackedCodeLocation)
    /// A box's accessor (`SchedulerBound.value`, `SchedulableObject.object`): a property of the box,
    /// whose call site Swift does not pass to an accessor.
    case accessor(StaticString)

    package var displayName: String {
        switch self {
        case .property(let name, let declaredAt):
            #if SCHEDULABLE_CHECKS
            // A name given with `@Confined(name:)` is kept by declaration site, not in the reference.
            if name == nil, let given = GivenPropertyNames.name(declaredAt: declaredAt) { return given }
            #endif
            return name ?? declaredAt.location.description
        case .method(let name, _), .accessor(let name): return String(describing: name)
        }
    }

    package var callSite: CodeLocation? {
        switch self {
        case .property: return nil
        case .method(_, let callSite): return callSite.location
        case .accessor: return nil
        }
    }

    /// Where a property is declared (`nil` for a method).
    package var declarationSite: CodeLocation? {
        switch self {
        case .property(_, let declaredAt): return declaredAt.location
        case .method, .accessor: return nil
        }
    }

    /// The site a first use binds a detached object at: the call site, else the declaration site.
    package var bindSite: PackedCodeLocation? {
        switch self {
        case .property(_, let declaredAt): return declaredAt
        case .method(_, let callSite): return callSite
        case .accessor: return nil
        }
    }
}
