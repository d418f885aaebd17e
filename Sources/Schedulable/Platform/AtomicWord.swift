import CSchedulableContext

/// A machine word that several threads read and write with atomics: the library's only atomic type.
///
/// Not `Synchronization.Atomic`: it sets an OS floor of macOS 15 / iOS 18. The C target's
/// `csched_atomic_*` functions (the compiler's `__atomic` builtins, the C11 memory model) need no OS
/// version and inline into Swift as one instruction each, as swift-atomics does.
///
/// The word lives **inline, as the first stored property of a final class without a superclass**, and
/// is reached at the object's address plus the Swift object header (`_getUnsafePointerToStoredProperties`,
/// the arithmetic of swift-atomics' `ManagedAtomic`). So a ``Confinement`` keeps its owner's id in
/// its own allocation, the fast path reads it with one load, and no access goes through
/// `&object.property`, which would begin a dynamic exclusivity access on every load. The word is only
/// ever touched through these functions, never as a Swift property, which is why the classes that hold
/// one are `@unchecked Sendable`.
@usableFromInline
package struct AtomicWord {
    @usableFromInline
    var _bits: UInt

    /// A word holding `value`.
    ///
    /// - Parameter value: The initial value.
    @inlinable
    package init(_ value: UInt) {
        _bits = value
    }

    /// The address of the word `holder` stores first.
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    static func _address(firstIn holder: AnyObject) -> UnsafeMutablePointer<UInt> {
        _getUnsafePointerToStoredProperties(holder).assumingMemoryBound(to: UInt.self)
    }

    /// A relaxed load of the word `holder` stores first.
    ///
    /// - Parameter holder: A final class whose first stored property is an `AtomicWord`.
    /// - Returns: The word's value.
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    package static func loadRelaxed(firstIn holder: AnyObject) -> UInt {
        UInt(csched_atomic_load_relaxed(_address(firstIn: holder)))
    }

    /// An acquiring load of the word `holder` stores first.
    ///
    /// - Parameter holder: A final class whose first stored property is an `AtomicWord`.
    /// - Returns: The word's value.
    package static func loadAcquiring(firstIn holder: AnyObject) -> UInt {
        UInt(csched_atomic_load_acquire(_address(firstIn: holder)))
    }

    /// A releasing store into the word `holder` stores first.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - holder: A final class whose first stored property is an `AtomicWord`.
    package static func storeReleasing(_ value: UInt, firstIn holder: AnyObject) {
        csched_atomic_store_release(_address(firstIn: holder), uintptr_t(value))
    }

    /// A relaxed store into the word `holder` stores first.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - holder: A final class whose first stored property is an `AtomicWord`.
    package static func storeRelaxed(_ value: UInt, firstIn holder: AnyObject) {
        csched_atomic_store_relaxed(_address(firstIn: holder), uintptr_t(value))
    }

    /// Adds `delta` (wrapping) to the word `holder` stores first; acquiring and releasing.
    ///
    /// - Parameters:
    ///   - delta: What to add.
    ///   - holder: A final class whose first stored property is an `AtomicWord`.
    /// - Returns: The new value.
    @discardableResult
    package static func add(_ delta: UInt, firstIn holder: AnyObject) -> UInt {
        UInt(csched_atomic_add(_address(firstIn: holder), uintptr_t(delta)))
    }

    /// Subtracts `delta` (wrapping) from the word `holder` stores first; acquiring and releasing.
    ///
    /// - Parameters:
    ///   - delta: What to subtract.
    ///   - holder: A final class whose first stored property is an `AtomicWord`.
    /// - Returns: The new value.
    @discardableResult
    package static func subtract(_ delta: UInt, firstIn holder: AnyObject) -> UInt {
        UInt(csched_atomic_subtract(_address(firstIn: holder), uintptr_t(delta)))
    }
}
