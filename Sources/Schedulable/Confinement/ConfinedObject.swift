/// A class whose members are checked against the scheduler it belongs to.
///
/// Opt in per type — no macros, no runtime hooks — by storing a ``Confinement``:
///
/// ```swift
/// final class UploadQueue: ConfinedObject {
///     let confinement = Confinement(owner: uploads)
///     @Confined var pending: [Photo] = []
///
///     func enqueue(_ photos: [Photo]) {
///         assertIsolated()
///         pending += photos
///     }
/// }
/// ```
///
/// Properties are checked by ``Confined``; methods by calling a guard at their top:
/// ``assertIsolated(_:function:file:line:)`` (debug tier), ``preconditionIsolated(_:function:file:line:)``
/// (always on) or the query ``isIsolated``. Each takes an optional message for the report, as Swift's
/// `Actor.assertIsolated(_:file:line:)` does; the report names the guarded method by itself.
public protocol ConfinedObject: AnyObject {
    /// The object's ownership record. Store it in a `let`: the checks read it on every access.
    var confinement: Confinement { get }
}

extension ConfinedObject {
    /// Reports a violation when called outside the object's owner — debug tier: compiled out of
    /// release builds (unless the `ReleaseChecks` trait is on), execution continues after the handler.
    ///
    /// The report names the guarded method (`function`), so options select it by its `#function`
    /// spelling; `message` is added to its detail line and is only evaluated for a report.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line.
    ///   - function: The guarded method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @inlinable
    @inline(__always)
    public func assertIsolated(
        _ message: @autoclosure () -> String = String(), function: StaticString = #function,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        #if SCHEDULABLE_CHECKS
        // The record's own fast path, and the message only on the slow one: at -Onone, where these
        // checks run by default, nothing here is inlined, and a closure handed through each level is
        // retained and released at each.
        if _slowPath(!confinement._record._passesFastPath) {
            confinement._record._methodCheckFailedFastPath(
                object: self, member: function, callSite: PackedCodeLocation(file: file, line: line), tier: .assert,
                message: message
            )
        }
        #endif
    }

    /// Reports a violation and stops the process when called outside the object's owner — always on,
    /// in every build.
    ///
    /// The report names the guarded method (`function`); `message` is added to its detail line and is
    /// only evaluated for a report.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line.
    ///   - function: The guarded method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @inlinable
    @inline(__always)
    public func preconditionIsolated(
        _ message: @autoclosure () -> String = String(), function: StaticString = #function,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        // As in `assertIsolated`: the message only on the slow path.
        if _slowPath(!confinement._record._passesFastPath) {
            confinement._record._methodCheckFailedFastPath(
                object: self, member: function, callSite: PackedCodeLocation(file: file, line: line), tier: .precondition,
                message: message
            )
        }
    }

    /// Whether the calling code may use this object right now (it runs in the owner's context, or the object
    /// is detached).
    ///
    /// Never a false "yes"; reports nothing.
    @inlinable
    public var isIsolated: Bool {
        confinement.isIsolated
    }

    /// Runs `body` with this object after checking, in every build, that the calling code runs on its
    /// owner — the escape hatch `MainActor.assumeIsolated` is for actors: a violation is reported and
    /// the process stops before `body` runs.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - body: The code that needs the object on its owner.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func assumeIsolated<T, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (Self) throws(E) -> T
    ) throws(E) -> T {
        confinement._checkMethod(self, "assumeIsolated(_:)", file, line, tier: .precondition)
        return try body(self)
    }
}

extension ConfinedObject {
    /// Transfers this object to `newOwner`: its confinement must be transferable
    /// (``Confinement/transferable(owner:file:line:)-(SerialScheduler,_,_)`` or ``Confinement/detached(file:line:)``).
    ///
    /// Call it from the current owner (or, for a detached object, from anywhere); a hand-off from
    /// elsewhere is itself a race and is reported at the precondition tier. On an object whose
    /// confinement has a fixed owner (``Confinement/init(owner:file:line:)-(SerialScheduler,_,_)``,
    /// ``Confinement/init(file:line:)``)
    /// it is reported (``ConfinementViolation/Kind/fixedOwnerChanged``, precondition tier, naming this
    /// object and the call site) and the owner stays.
    ///
    /// - Parameters:
    ///   - newOwner: The scheduler that owns the object from now on.
    ///   - file: The new bind site.
    ///   - line: The new bind site.
    @inlinable
    public func handOff(to newOwner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        confinement._record.handOff(to: newOwner.executionContext, object: self, file: file, line: line)
    }

    /// Returns this object to the detached state: the next checked use binds it again. Its confinement
    /// must be transferable, as for ``handOff(to:file:line:)-(SerialScheduler,_,_)``.
    ///
    /// Call it from the current owner. On a fixed-owner object it is reported
    /// (``ConfinementViolation/Kind/fixedOwnerChanged``) and the owner stays.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    @inlinable
    public func detach(file: StaticString = #fileID, line: UInt = #line) {
        confinement._record.detach(object: self, file: file, line: line)
    }
}
