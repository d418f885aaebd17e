import CSchedulableContext

/// A member of a protected type, named for ``ScheduleProtectionOptions``: a property by key path
/// (checked by the compiler) or a method by name (as `#function` spells it: `enqueue(_:)`).
public struct ScheduleMember<Object: AnyObject>: Sendable {
    package enum Storage: Sendable {
        case property(PropertyProbe)
        case method(String)
    }

    package let storage: Storage

    /// A `@ScheduleProtected` property, by key path: `.property(\UploadQueue.isPaused)`.
    ///
    /// The key path is matched to the property's wrapper the first time the object is used where it
    /// may be (on its owner, or by the thread building it); a key path that reaches no
    /// `@ScheduleProtected` property is reported then, naming this call site.
    ///
    /// - Parameters:
    ///   - keyPath: The property's key path.
    ///   - file: Where the option is written, for the error if the key path reaches no protected property.
    ///   - line: Where the option is written.
    /// - Returns: The member.
    public static func property<Value>(
        _ keyPath: KeyPath<Object, Value> & Sendable, file: StaticString = #fileID, line: UInt = #line
    ) -> Self {
        Self(storage: .property(PropertyProbe(writtenAt: SourceLocation(file: file, line: line)) { object in
            guard let object = object as? Object else { return }
            withExtendedLifetime(object[keyPath: keyPath]) {}
        }))
    }

    /// A method, by its `#function` spelling: `.method("enqueue(_:)")`.
    ///
    /// The compiler cannot check a method name; `swift package schedule-audit` reports names that
    /// match no method of the type.
    ///
    /// - Parameter name: The method's name with argument labels, e.g. `"enqueue(_:)"`.
    /// - Returns: The member.
    public static func method(_ name: String) -> Self {
        Self(storage: .method(name))
    }
}

/// Which guarded members of a type are checked, after POSScheduleProtectionOptions.
///
/// By default every guarded member (every `@ScheduleProtected` property and every method that calls a
/// guard) is checked. An include list narrows that to the listed members (plus those a predicate
/// accepts); an exclude list removes members; exclusion always wins. Options chain:
///
/// ```swift
/// ScheduleProtection(owner: uploads, options: .exclude(.property(\UploadQueue.isPaused))
///     .excluding(.method("debugDump()")))
/// ScheduleProtection(owner: .main, options: .include(where: { !$0.hasPrefix("_") }))
/// ```
///
/// Options only decide what is *reported*: a check whose member is excluded costs the same on the fast
/// path and is consulted only when the check fails.
public struct ScheduleProtectionOptions<Object: AnyObject>: Sendable {
    package var erased: ErasedScheduleOptions

    /// Every guarded member is checked.
    public static var `default`: Self { Self(erased: ErasedScheduleOptions()) }

    /// Only the listed members are checked.
    ///
    /// - Parameter members: The members to check.
    /// - Returns: The options.
    public static func include(_ members: ScheduleMember<Object>...) -> Self {
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
    public static func exclude(_ members: ScheduleMember<Object>...) -> Self {
        var options = Self.default
        options.erased.add(members, to: \.excluded)
        return options
    }

    /// These options, also checking `members` (no effect when everything is already included).
    ///
    /// - Parameter members: More members to check.
    /// - Returns: The combined options.
    public func including(_ members: ScheduleMember<Object>...) -> Self {
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

    /// These options, no longer checking `members`. Exclusion wins over inclusion.
    ///
    /// - Parameter members: Members not to check.
    /// - Returns: The combined options.
    public func excluding(_ members: ScheduleMember<Object>...) -> Self {
        var options = self
        options.erased.add(members, to: \.excluded)
        return options
    }
}

/// The options of one object, without the object's type (it is stored in the non-generic
/// ``ScheduleProtection``).
package struct ErasedScheduleOptions: Sendable {
    package struct Members: Sendable {
        var properties: [PropertyProbe] = []
        var methods: Set<String> = []
    }

    /// Which wrapper storages (by declaration site) the property entries reach, once probed.
    package struct ResolvedProperties: Sendable {
        var included: Set<SourceLocation> = []
        var excluded: Set<SourceLocation> = []
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

    mutating func add<Object>(_ members: [ScheduleMember<Object>], to list: WritableKeyPath<Self, Members>) {
        for member in members {
            switch member.storage {
            case .property(let probe): self[keyPath: list].properties.append(probe)
            case .method(let name): self[keyPath: list].methods.insert(name)
            }
        }
    }

    /// Whether a violation on `member` is reported. Property entries not yet matched to wrappers
    /// (`resolved == nil`) cannot exclude anything, so such a violation is reported.
    package func checks(_ member: ScheduleMemberReference, resolved: ResolvedProperties?) -> Bool {
        if isDefault { return true }
        switch member {
        case .property(_, let declaredAt):
            if resolved?.excluded.contains(declaredAt) == true { return false }
            if includesEverything { return true }
            if resolved?.included.contains(declaredAt) == true { return true }
        case .method(let method, _):
            let method = String(describing: method)
            if excluded.methods.contains(method) { return false }
            if includesEverything { return true }
            if included.methods.contains(method) { return true }
        }
        let name = member.displayName
        return predicates.contains { $0(name) }
    }
}

/// Finds which `@ScheduleProtected` storage a property key path reaches, by reading the property once
/// on a thread that may (the owner, or the thread building the object) with this thread's probe slot
/// set: the wrapper's slow path records its declaration site there instead of checking.
///
/// The key path itself cannot be handed to the wrapper's slow path: any use of it there makes the
/// optimizer materialize (and retain and release) the key path on every access, fast path included.
package struct PropertyProbe: Sendable {
    package let writtenAt: SourceLocation
    let read: @Sendable (AnyObject) -> Void

    init(writtenAt: SourceLocation, read: @escaping @Sendable (AnyObject) -> Void) {
        self.writtenAt = writtenAt
        self.read = read
    }

    /// The declaration site of the wrapper that `read` reaches on `object`, or `nil` if it reaches none.
    func declarationSite(on object: AnyObject) -> SourceLocation? {
        var recorded: SourceLocation?
        withUnsafeMutablePointer(to: &recorded) { slot in
            let previous = csched_probe_swap(UnsafeMutableRawPointer(slot))
            defer { _ = csched_probe_swap(previous) }
            read(object)
        }
        return recorded
    }

    /// Records `site` if a probe runs on this thread; returns whether one did (and the check is skipped).
    static func recordIfProbing(_ site: SourceLocation) -> Bool {
        guard let slot = csched_probe_slot() else { return false }
        let recorded = slot.assumingMemoryBound(to: SourceLocation?.self)
        if recorded.pointee == nil { recorded.pointee = site }
        return true
    }
}

/// Which member a check is for, resolved only on the slow path.
@usableFromInline
package enum ScheduleMemberReference {
    /// A `@ScheduleProtected` property: its given name (if any) and declaration site.
    case property(name: String?, declaredAt: SourceLocation)
    /// A method guard: `#function` and the guard's location.
    case method(StaticString, callSite: SourceLocation)

    package var displayName: String {
        switch self {
        case .property(let name, let declaredAt): return name ?? declaredAt.description
        case .method(let name, _): return String(describing: name)
        }
    }

    package var callSite: SourceLocation? {
        switch self {
        case .property: return nil
        case .method(_, let callSite): return callSite
        }
    }
}
