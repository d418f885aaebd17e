/// Which guarded members of a type are checked, after POSScheduleProtectionOptions.
///
/// By default every guarded member (every `@Confined` property and every method that calls a
/// guard) is checked. An include list narrows that to the listed members (plus those a predicate
/// accepts); an exclude list removes members; exclusion always wins. Options chain:
///
/// ```swift
/// Confinement(owner: uploads, options: .exclude(.property(\UploadQueue.isPaused))
///     .excluding(.method("debugDump()")))
/// Confinement(owner: .main, options: .include(where: { !$0.hasPrefix("_") }))
/// ```
///
/// Options only decide what is *reported*: a check whose member is excluded costs the same on the fast
/// path and is consulted only when the check fails.
///
/// ## When property options apply
/// A key path names a property, while a check knows its wrapper by where it is declared; the two are
/// matched by reading the property once, with checks suspended, where reading is safe — on the owner,
/// or on the thread still building the object. What a match finds holds for the whole type, so it is
/// done once per key path in the process, and every later object applies its options from its very
/// first access, wherever that is. The first object of a type whose first checked access is off its
/// owner (before any object of the type was used on its owner) is the one exception: nothing may be
/// read there, so its property entries do not apply to that access — an excluded property is reported,
/// and an include list checks only its method and name entries. Method names and name predicates
/// never need a match.
public struct ConfinementOptions<Object: AnyObject>: Sendable {
    package var erased: ErasedConfinementOptions

    /// Every guarded member is checked.
    public static var `default`: Self { Self(erased: ErasedConfinementOptions()) }

    /// Only the listed members are checked.
    ///
    /// - Parameter members: The members to check.
    /// - Returns: The options.
    public static func include(_ members: ConfinedMember<Object>...) -> Self {
        var options = Self.default
        options.erased.includesEverything = false
        options.erased.add(members, to: \.included)
        return options
    }

    /// Only the members whose name `predicate` accepts are checked (property names are the wrapper's
    /// `name:` or its declaration site; method names are `#function` spellings).
    ///
    /// - Parameter predicate: Decides, by name, whether a member is checked.
    /// - Returns: The options.
    public static func include(where predicate: @escaping @Sendable (String) -> Bool) -> Self {
        Self.include().including(where: predicate)
    }

    /// Every guarded member except the listed ones is checked.
    ///
    /// - Parameter members: The members not to check.
    /// - Returns: The options.
    public static func exclude(_ members: ConfinedMember<Object>...) -> Self {
        var options = Self.default
        options.erased.add(members, to: \.excluded)
        return options
    }

    /// These options, also checking `members` (no effect when everything is already included).
    ///
    /// - Parameter members: More members to check.
    /// - Returns: The combined options.
    public func including(_ members: ConfinedMember<Object>...) -> Self {
        var options = self
        options.erased.add(members, to: \.included)
        return options
    }

    /// These options, also checking the members whose name `predicate` accepts.
    ///
    /// - Parameter predicate: Decides, by name, whether a member is checked.
    /// - Returns: The combined options.
    public func including(where predicate: @escaping @Sendable (String) -> Bool) -> Self {
        var options = self
        options.erased.predicates.append(predicate)
        return options
    }

    /// These options, no longer checking `members`.
    ///
    /// Exclusion wins over inclusion.
    ///
    /// - Parameter members: Members not to check.
    /// - Returns: The combined options.
    public func excluding(_ members: ConfinedMember<Object>...) -> Self {
        var options = self
        options.erased.add(members, to: \.excluded)
        return options
    }
}
