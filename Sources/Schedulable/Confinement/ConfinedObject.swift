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
/// ``assertIsolated(_:file:line:)`` (debug tier), ``preconditionIsolated(_:file:line:)`` (always on)
/// or the query ``isIsolated``.
public protocol ConfinedObject: AnyObject {
    /// The object's ownership record. Store it in a `let`: the checks read it on every access.
    var confinement: Confinement { get }
}

extension ConfinedObject {
    /// Reports a violation when called outside the object's owner — debug tier: compiled out of
    /// release builds (unless the `ReleaseChecks` trait is on), execution continues after the handler.
    ///
    /// - Parameters:
    ///   - member: The method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @inlinable
    @inline(__always)
    public func assertIsolated(_ member: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        #if SCHEDULABLE_CHECKS
        confinement._checkMethod(self, member, file, line, tier: .assert)
        #endif
    }

    /// Reports a violation and stops the process when called outside the object's owner — always on,
    /// in every build.
    ///
    /// - Parameters:
    ///   - member: The method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @inlinable
    @inline(__always)
    public func preconditionIsolated(
        _ member: StaticString = #function, file: StaticString = #fileID, line: UInt = #line
    ) {
        confinement._checkMethod(self, member, file, line, tier: .precondition)
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
