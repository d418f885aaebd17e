/// A class whose members are checked against the scheduler it belongs to.
///
/// Opt in per type — no macros, no runtime hooks — by storing a ``ScheduleProtection``:
///
/// ```swift
/// final class UploadQueue: ScheduleProtectable {
///     let scheduleProtection = ScheduleProtection(owner: uploads)
///     @ScheduleProtected var pending: [Photo] = []
///
///     func enqueue(_ photos: [Photo]) {
///         assertScheduled()
///         pending += photos
///     }
/// }
/// ```
///
/// Properties are checked by ``ScheduleProtected``; methods by calling a guard at their top:
/// ``assertScheduled(_:file:line:)`` (debug tier), ``preconditionScheduled(_:file:line:)`` (always on)
/// or the query ``isScheduled``.
public protocol ScheduleProtectable: AnyObject {
    /// The object's ownership record. Store it in a `let`: the checks read it on every access.
    var scheduleProtection: ScheduleProtection { get }
}

extension ScheduleProtectable {
    /// Reports a violation when called outside the object's owner — debug tier: compiled out of
    /// release builds (unless the `ReleaseChecks` trait is on), execution continues after the handler.
    ///
    /// - Parameters:
    ///   - member: The method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @inlinable
    @inline(__always)
    public func assertScheduled(_ member: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        #if SCHEDULABLE_CHECKS
        scheduleProtection._checkMethod(self, member, file, line, tier: .assert)
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
    public func preconditionScheduled(
        _ member: StaticString = #function, file: StaticString = #fileID, line: UInt = #line
    ) {
        scheduleProtection._checkMethod(self, member, file, line, tier: .precondition)
    }

    /// Whether the calling code may use this object right now (it runs in the owner's context, or the object
    /// is detached).
    ///
    /// Never a false "yes"; reports nothing.
    @inlinable
    public var isScheduled: Bool {
        scheduleProtection.isCurrentContextOwner
    }
}
