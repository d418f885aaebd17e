/// A stored property of a ``ConfinedObject`` class whose every get, set and in-place mutation is
/// checked against the object's owner — debug tier: in release builds (without the `ReleaseChecks`
/// trait) the wrapper stores only the value and the accessors compile to plain loads and stores.
///
/// ```swift
/// @Confined var pending: [Photo] = []
/// @Confined(name: "paused") var isPaused = false     // reports say `paused`; options' predicates see it
/// ```
///
/// A read-modify-write (`pending += photos`, `pending.append(photo)`) is checked once: the wrapper's
/// `_modify` accessor checks, then yields the storage in place.
///
/// The wrapper reaches its enclosing object through the enclosing-instance subscript, so it can only
/// be used inside a class that conforms to ``ConfinedObject``.
@propertyWrapper
public struct Confined<Value> {
    @usableFromInline
    var _value: Value

    #if SCHEDULABLE_CHECKS
    /// Where the property is declared: 8 bytes, no string until a report needs one. The wrapper is the
    /// value and this, nothing else (a `Confined<Int>` is 16 bytes: within the 24-byte inline buffer of
    /// the value copies `-Onone` code makes, so a read allocates nothing); a name given with `name:`
    /// is kept out of line, per declaration site (`GivenPropertyNames`).
    @usableFromInline
    let _declaredAt: PackedCodeLocation
    #endif

    /// Wraps a property's initial value.
    ///
    /// - Parameters:
    ///   - wrappedValue: The initial value.
    ///   - name: Overrides the property's name in reports, and names it for name predicates in options;
    ///     without it reports name the property as the class declares it (found from the class's fields
    ///     when a report is made). The name belongs to the declaration: the first one given at a
    ///     declaration site is the one used for every object.
    ///   - file: The declaration site.
    ///   - line: The declaration site.
    @inlinable
    public init(wrappedValue: Value, name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        _value = wrappedValue
        #if SCHEDULABLE_CHECKS
        _declaredAt = PackedCodeLocation(file: file, line: line)
        if let name { GivenPropertyNames.register(name, declaredAt: _declaredAt) }
        #endif
    }

    /// Unavailable: the value is reached through the enclosing object, so that it can be checked.
    @available(*, unavailable, message: "@Confined can only be used in a class that conforms to ConfinedObject")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    /// The checked accessors the compiler uses for `object.property`.
    ///
    /// In debug builds (`DEBUG`, as SwiftPM and Xcode define it) `get`, `set` and `_check` are
    /// `@_transparent`, so that at `-Onone` an access makes no generic call and reaches the confinement
    /// through the concrete class (Benchmarks/README.md, "Debug builds"). At `-O` they are `@inlinable`
    /// and always inlined, never `@_transparent`: the key paths must fold into field accesses before the
    /// property's own accessor is inlined into its callers.
    ///
    /// - Parameters:
    ///   - object: The enclosing object.
    ///   - wrappedKeyPath: The property's key path (not used: see `_check`).
    ///   - storageKeyPath: The wrapper's storage.
    @inlinable
    public static subscript<Object: ConfinedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        // Invariant: no key path at -O (Benchmarks/scripts/check-no-keypaths.sh, the workload
        // threshold): the accessors are always inlined, so the key paths fold into a field access.
        #if DEBUG
        @_transparent
        #else
        @inline(__always)
        #endif
        get {
            #if SCHEDULABLE_CHECKS
            _check(object, storageKeyPath)
            #endif
            return object[keyPath: storageKeyPath]._value
        }
        // The same invariant as the getter's.
        #if DEBUG
        @_transparent
        #else
        @inline(__always)
        #endif
        set {
            #if SCHEDULABLE_CHECKS
            _check(object, storageKeyPath)
            #endif
            object[keyPath: storageKeyPath]._value = newValue
        }
        // A coroutine is not inlined at -Onone, so the check is a call here rather than inlined into a
        // generic body (the `debug confinedModify` threshold holds the cheaper shape).
        _modify {
            #if SCHEDULABLE_CHECKS
            _checkCall(object, storageKeyPath)
            #endif
            yield &object[keyPath: storageKeyPath]._value
        }
    }

    #if SCHEDULABLE_CHECKS
    /// `_check` as a call, for `_modify` (see there); at `-O` it is inlined like `_check`.
    @inlinable
    @inline(__always)
    static func _checkCall<Object: ConfinedObject>(
        _ object: Object,
        _ storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) {
        _check(object, storageKeyPath)
    }

    // Invariant: the slow path uses no key path, or every access would create one, fast path
    // included; the storage key path is only projected (a field access). So the wrapped key path is
    // not passed, and options match properties by declaration site (`PropertyProbe`).
    #if DEBUG
    @usableFromInline
    @_transparent
    #else
    @inlinable
    @inline(__always)
    #endif
    static func _check<Object: ConfinedObject>(
        _ object: Object,
        _ storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) {
        #if DEBUG
        // One read of the record out of the object (at -Onone a copy: one retain and release, the
        // floor), then the fast path inlined from C (`ConfinementRecord._passesFastPath`). The copy
        // keeps the record alive through the load even when `confinement` is computed.
        let record = object.confinement._record
        let passes = record._passesFastPath
        _fixLifetime(record)
        #else
        // Invariant: a property's getter and setter inline into the user's code as without checks
        // (the `checks confinedWrite` and workload thresholds); the mark (no machine code) tells the
        // inliner the miss branch is cold. A report still names the access's line: on Linux `CallStack`
        // reads inlined calls from DWARF (`InlinedCallSites`).
        _onFastPath()
        let protection = object.confinement
        let passes = protection._passesFastPath
        #endif
        if _slowPath(!passes) {
            #if DEBUG
            // The same record, as the one-reference struct it is stored in (no initializer call at -Onone).
            let protection = unsafeBitCast(record, to: Confinement.self)
            #endif
            // Main-queue work under dispatchMain() (rule 3) before the member: reading the declaration
            // site is an exclusivity access, most of what a miss costs in the caller.
            if Checking.passesAsMainQueueWork(settledWord: AtomicWord.loadRelaxed(firstIn: protection._record)) { return }
            #if DEBUG
            // No name here: a given name is found by the declaration site when a report or an options
            // predicate needs it (`GivenPropertyNames`).
            protection._checkFailedFastPath(
                object: object,
                member: .property(name: nil, declaredAt: object[keyPath: storageKeyPath]._declaredAt),
                tier: .assert
            )
            #else
            // One small non-generic call at -O: the member reference is built out of line (see there).
            protection._propertyCheckFailedFastPath(object, declaredAt: object[keyPath: storageKeyPath]._declaredAt)
            #endif
        }
    }
    #endif
}

extension Confined: Sendable where Value: Sendable {}

#if SCHEDULABLE_CHECKS
extension Confinement {
    /// The slow path of a `@Confined` access (see ``ConfinementRecord/_propertyCheckFailedFastPath(_:declaredAt:)``).
    @usableFromInline
    @_transparent  // inlined even at -Onone: a forwarder only
    func _propertyCheckFailedFastPath(_ object: AnyObject, declaredAt: PackedCodeLocation) {
        // Unretained, as in `_checkFailedFastPath`.
        Unmanaged.passUnretained(_record)._withUnsafeGuaranteedRef {
            $0._propertyCheckFailedFastPath(object, declaredAt: declaredAt)
        }
    }
}
#endif
