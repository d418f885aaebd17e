import Schedulable

/// A protected object as an app would write one: owned by a `SerialQueueScheduler`, one
/// `@Confined` property, one plain property read behind method guards.
public final class ProtectedModel: ConfinedObject {
    /// Bound to the benchmark's owner queue.
    public let confinement: Confinement

    /// Checked on every access while the debug tier is compiled in (debug, or the `ReleaseChecks`
    /// trait); a plain stored property otherwise.
    @Confined(name: "value") public var value = 1

    /// Read after an explicit guard, like the body of a guarded method.
    public var unguardedValue = 1

    /// The same accessor shape as `@Confined` (an enclosing-instance subscript) without any check: what
    /// a debug build's checked access is compared with.
    @UncheckedAccessor public var uncheckedValue = 1

    /// Binds the model to `owner`.
    public init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
    }

    /// Binds the model to the main thread.
    public init(owner: MainThreadScheduler) {
        confinement = Confinement(owner: owner)
    }

    /// Binds the model to `owner`, transferable: it may be handed off or detached.
    public init(transferableOwner owner: SerialQueueScheduler) {
        confinement = .transferable(owner: owner)
    }
}

/// The always-on box, stored in a class so reading it has the same shape as the other kernels.
public final class BoundModel {
    /// Checked on every access in every build; a `let`, like a box that is only read.
    public let bound: SchedulerBound<Int>

    /// The same box in a `var`, as it must be stored to be written through. Reading through a class
    /// `var` whose getter is not fully inlined costs a dynamic exclusivity check (`swift_beginAccess`),
    /// which `-O` keeps; this row shows that price.
    public var mutableBound: SchedulerBound<Int>

    /// Binds the boxes to `owner`.
    public init(owner: SerialQueueScheduler) {
        bound = SchedulerBound(1, owner: owner)
        mutableBound = SchedulerBound(1, owner: owner)
    }
}

@inline(never)
func confinedRead(_ model: ProtectedModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.value)
    }
}

// The writes go through a function of their own, like a method that sets a property (`func pause() {
// isPaused = true }`): the optimizer gives an accessor called in a loop a bigger inlining budget, and
// the -O setter that built two key paths per call was only visible outside a loop.

@inline(never)
func confinedWrite(_ model: ProtectedModel, _ iterations: Int) {
    for i in 0..<iterations {
        storeConfined(model, i)
        consume(i)
    }
}

@inline(never)
func storeConfined(_ model: ProtectedModel, _ value: Int) {
    model.value = value
}

@inline(never)
func confinedModify(_ model: ProtectedModel, _ iterations: Int) {
    for i in 0..<iterations {
        addConfined(model)
        consume(i)
    }
}

@inline(never)
func addConfined(_ model: ProtectedModel) {
    model.value &+= 1
}

@inline(never)
func schedulerBoundRead(_ model: BoundModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.bound.value)
    }
}

@inline(never)
func schedulerBoundInVarRead(_ model: BoundModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.mutableBound.value)
    }
}

@inline(never)
func assertIsolatedRead(_ model: ProtectedModel, _ iterations: Int) {
    for _ in 0..<iterations {
        model.assertIsolated()
        consume(model.unguardedValue)
    }
}

@inline(never)
func preconditionIsolatedRead(_ model: ProtectedModel, _ iterations: Int) {
    for _ in 0..<iterations {
        model.preconditionIsolated()
        consume(model.unguardedValue)
    }
}

@inline(never)
func isIsolatedRead(_ model: ProtectedModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.isIsolated ? model.unguardedValue : 0)
    }
}

/// A property wrapper with `@Confined`'s accessor shape — the enclosing-instance subscript through the
/// storage key path, with the same attributes (`@_transparent` in debug builds, see `Confined`) — and no
/// check, so that `-Onone` rows isolate the check's own cost.
@propertyWrapper
public struct UncheckedAccessor<Value> {
    @usableFromInline
    var _value: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) {
        _value = wrappedValue
    }

    /// Unavailable: the enclosing-instance subscript is the accessor.
    @available(*, unavailable, message: "use from a class")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    /// The accessor, as `@Confined`'s minus the check.
    #if DEBUG
    @inlinable  // for `@_transparent`, as in `Confined`
    #endif
    public static subscript<Object: AnyObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        #if DEBUG
        @_transparent
        #endif
        get { object[keyPath: storageKeyPath]._value }
        #if DEBUG
        @_transparent
        #else
        @inline(__always)
        #endif
        set { object[keyPath: storageKeyPath]._value = newValue }
    }
}

@inline(never)
func uncheckedAccessorRead(_ model: ProtectedModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.uncheckedValue)
    }
}
