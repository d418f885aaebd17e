/// A member of a protected type, named for ``ScheduleProtectionOptions``: a property by key path
/// (checked by the compiler) or a method by name (as `#function` spells it: `enqueue(_:)`).
public struct ScheduleMember<Object: AnyObject>: Hashable, Sendable {
    package enum Storage: Hashable, Sendable {
        case property(SendableKeyPath)
        case method(String)
    }

    package let storage: Storage

    /// A property, by key path: `.property(\UploadQueue.isPaused)`.
    ///
    /// - Parameter keyPath: The property's key path.
    /// - Returns: The member.
    public static func property<Value>(_ keyPath: KeyPath<Object, Value> & Sendable) -> Self {
        Self(storage: .property(SendableKeyPath(keyPath)))
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
        var keyPaths: Set<SendableKeyPath> = []
        var methods: Set<String> = []
    }

    package var includesEverything = true
    package var included = Members()
    package var excluded = Members()
    package var predicates: [@Sendable (String) -> Bool] = []

    package var isDefault: Bool {
        includesEverything && excluded.keyPaths.isEmpty && excluded.methods.isEmpty
    }

    mutating func add<Object>(_ members: [ScheduleMember<Object>], to list: WritableKeyPath<Self, Members>) {
        for member in members {
            switch member.storage {
            case .property(let keyPath): self[keyPath: list].keyPaths.insert(keyPath)
            case .method(let name): self[keyPath: list].methods.insert(name)
            }
        }
    }

    /// Whether a violation on `member` is reported.
    package func checks(_ member: ScheduleMemberReference) -> Bool {
        if isDefault { return true }
        let name = member.displayName
        switch member {
        case .property(_, _, let keyPath):
            let keyPath = keyPath.map(SendableKeyPath.init)
            if let keyPath, excluded.keyPaths.contains(keyPath) { return false }
            if includesEverything { return true }
            if let keyPath, included.keyPaths.contains(keyPath) { return true }
        case .method(let method, _):
            let method = String(describing: method)
            if excluded.methods.contains(method) { return false }
            if includesEverything { return true }
            if included.methods.contains(method) { return true }
        }
        return predicates.contains { $0(name) }
    }
}

/// Which member a check is for, resolved only on the slow path.
@usableFromInline
package enum ScheduleMemberReference {
    /// A `@ScheduleProtected` property: its given name (if any), declaration site and key path.
    case property(name: String?, declaredAt: SourceLocation, keyPath: AnyKeyPath?)
    /// A method guard: `#function` and the guard's location.
    case method(StaticString, callSite: SourceLocation)

    package var displayName: String {
        switch self {
        case .property(let name, let declaredAt, _): return name ?? declaredAt.description
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

/// A key path that crosses threads inside options.
package struct SendableKeyPath: Hashable, @unchecked Sendable {
    // Options accept only `KeyPath & Sendable` (a key path with no non-Sendable captured subscript
    // arguments); the wrapped key path from `_enclosingInstance` is used only for comparison, on the
    // thread that made the access. Key path objects are immutable.
    let keyPath: AnyKeyPath

    init(_ keyPath: AnyKeyPath) {
        self.keyPath = keyPath
    }
}
