#if SCHEDULABLE_CHECKS
/// Names `@Confined` properties in reports without an annotation: given the declaration site a
/// wrapper's slow path passed, finds the stored property of the object's class whose wrapper was
/// declared there, and names it as the source spells it (`isPaused`, not `_isPaused`).
///
/// Why not the key path: the wrapper's enclosing-instance subscript receives it, but any use of a key
/// path in the slow path makes `-O` clients build and retain it on every access, fast path included
/// (see `Confined._check`). Why not `Mirror`: it copies every stored property's value, and a report is
/// made off the owner, while the owner may be writing those properties — retaining an array the owner
/// is releasing is a crash, not a report. This reads only the class's field metadata (names, offsets,
/// types: the runtime's field walk behind the standard library's `_forEachField`, since Swift 5.2) and, for
/// each `@Confined` field, its `_declaredAt` — a `let` written once by the initializer, before the
/// object could be shared, so reading it from any thread is not a race.
///
/// Reporting path only; the answer is the same for every object of a class, so it is kept per class
/// and declaration site. Self-checked on first use against a probe class; if the check fails (a future
/// runtime changes what the field walk gives), or `SCHEDULABLE_DISABLE_PROPERTY_NAMES` is set, reports
/// name the property by its declaration site, as before.
enum ConfinedPropertyNames {
    /// Per class: declaration site → property name (every `@Confined` field of the class and its
    /// superclasses, found in one pass).
    private static let cache = LockedValue([ObjectIdentifier: [PackedCodeLocation: String]]())

    /// Whether field names can be used here: the `@Confined` matching names a probe property right
    /// (`PlatformInternals.forEachField` checks the kill switch and the field walk itself).
    private static let isUsable = selfCheckPasses()

    /// The name of the `@Confined` property of `object` declared at `declaredAt`: the name given with
    /// `name:`, else the field's, or `nil` when neither can be found (the self-check failed, the OS
    /// predates the SPI, or no field matches).
    static func name(declaredAt: PackedCodeLocation, in object: AnyObject) -> String? {
        if let name = GivenPropertyNames.name(declaredAt: declaredAt) { return name }
        guard isUsable else { return nil }
        return lookUp(declaredAt: declaredAt, in: object)
    }

    private static func lookUp(declaredAt: PackedCodeLocation, in object: AnyObject) -> String? {
        let key = ObjectIdentifier(type(of: object))
        if let names = cache.withLock({ $0[key] }) { return names[declaredAt] }
        guard let names = fieldNames(of: object) else { return nil }
        cache.withLock { $0[key] = names }
        return names[declaredAt]
    }

    /// Every `@Confined` field of `object`'s class (superclasses included): its wrapper's declaration
    /// site → the property's name.
    private static func fieldNames(of object: AnyObject) -> [PackedCodeLocation: String]? {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        var names: [PackedCodeLocation: String] = [:]
        let complete = PlatformInternals.forEachField(of: type(of: object)) { name, offset, fieldType in
            guard let storage = fieldType as? any ConfinedStorageLayout.Type else { return true }
            let site = base.load(fromByteOffset: offset + storage.declaredAtOffset, as: PackedCodeLocation.self)
            var field = String(cString: name)
            // The compiler names a wrapper's storage `_name`.
            if field.hasPrefix("_") { field.removeFirst() }
            // Two wrappers declared on one line share their site, and nothing a check can see at run time
            // tells them apart: the report names both (in declaration order) rather than guess one.
            names[site] = names[site].map { "\($0) or \(field)" } ?? field
            return true
        }
        return complete == true ? names : nil
    }

    /// Whether the lookup names a known property of a probe object correctly.
    private static func selfCheckPasses() -> Bool {
        let probe = NamesProbe()
        return lookUp(declaredAt: probe.declaredAt, in: probe) == "probedProperty"
    }
}

/// The layout fact the lookup needs from a `Confined<Value>` of any `Value`.
protocol ConfinedStorageLayout {
    /// The byte offset of the wrapper's declaration site inside it.
    static var declaredAtOffset: Int { get }
}

extension Confined: ConfinedStorageLayout {
    // Library code, reached only through this requirement on the reporting path: the key path here is
    // never inlined into a client's accessor.
    static var declaredAtOffset: Int { MemoryLayout<Self>.offset(of: \Self._declaredAt)! }
}

/// The self-check's object: one property whose name is known.
private final class NamesProbe: ConfinedObject {
    let confinement = Confinement.detached()
    @Confined var probedProperty = 0
    let declaredAt: PackedCodeLocation

    init() {
        declaredAt = _probedProperty._declaredAt
    }
}
#endif
