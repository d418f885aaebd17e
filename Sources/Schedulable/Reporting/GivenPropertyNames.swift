#if SCHEDULABLE_CHECKS
/// Names given with `@Confined(name:)`, by declaration site. Kept here rather than in each wrapper
/// (16 bytes of `String?` per property per object, which made a debug-tier `Confined<Int>` too big for
/// the runtime's inline value buffer): a name belongs to the declaration, and few declarations give one.
/// Reports and options' name predicates look it up (``ConfinedMemberReference/displayName``, and
/// `ConfinedPropertyNames` before it reads the class's fields).
@usableFromInline
enum GivenPropertyNames {
    private static let names = LockedValue([PackedCodeLocation: String]())

    /// Whether any name was ever given: until then a lookup takes no lock.
    private static let anyGiven = AtomicCell(0)

    /// Records `name` as the name given to the property declared at `declaredAt` (the first one given
    /// there stays). Called by the wrapper's initializer, only when `name:` is given.
    @usableFromInline
    @inline(never)
    static func register(_ name: String, declaredAt: PackedCodeLocation) {
        names.withLock { names in
            if names[declaredAt] == nil { names[declaredAt] = name }
        }
        anyGiven.storeReleasing(1)
    }

    /// The name given with `@Confined(name:)` to the property declared at `declaredAt`, if any.
    static func name(declaredAt: PackedCodeLocation) -> String? {
        guard anyGiven.loadAcquiring() != 0 else { return nil }
        return names.withLock { $0[declaredAt] }
    }
}
#endif
