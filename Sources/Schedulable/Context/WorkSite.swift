import CSchedulableContext

/// Where a unit of work was scheduled from: what a context publishes while it runs the work, so a
/// report from another thread can say what the owner was doing (issue 38, "the owner's side").
///
/// The packed form only, written on every work item and read lock-free: what the reader-facing types
/// decode (``ConfinementViolation/Intruder`` for the calling code, reports and observation steps;
/// ``ConfinementViolation/OwnerActivity`` for the owner read from outside), not a third answer.
///
/// Two words, both static: a ``PackedCodeLocation`` (the `#fileID` literal's address and the line)
/// and the `#function` literal's address.
/// Nothing here refers to the work object, so a report that reads a stale site reads static bytes.
package struct WorkSite: @unchecked Sendable {
    // @unchecked: the pointer is a string literal's address, immutable and alive for the whole process.
    /// Where the work was scheduled; ``PackedCodeLocation/none`` when the site was not recorded.
    package let location: PackedCodeLocation
    /// The `#function` literal, NUL-terminated, or `nil`.
    package let function: UnsafePointer<CChar>?

    /// A site from its location and function literal.
    @inline(__always)
    package init(location: PackedCodeLocation, function: StaticString?) {
        self.location = location
        if let function, function.hasPointerRepresentation {
            self.function = UnsafeRawPointer(function.utf8Start).assumingMemoryBound(to: CChar.self)
        } else {
            self.function = nil
        }
    }

    @inline(__always)
    private init(location: PackedCodeLocation, function: UnsafePointer<CChar>?) {
        self.location = location
        self.function = function
    }

    /// Work whose scheduling site the library was not told (a custom scheduler's, a direct
    /// `trySchedule(_:)` call).
    package static var unrecorded: WorkSite { WorkSite(location: .none, function: nil as UnsafePointer<CChar>?) }

    /// Hands this site to the `trySchedule(_:)` the calling thread makes next.
    @inline(__always)
    package func noteSubmission() {
        csched_work_note_submission(location.bits, function)
    }

    /// Forgets a submitted site that no `trySchedule(_:)` took (a custom scheduler's).
    @inline(__always)
    package static func clearSubmission() {
        csched_work_note_submission(0, nil)
    }

    /// The site a scheduling call handed this thread for its `trySchedule(_:)`, or ``unrecorded``.
    @inline(__always)
    package static func takeSubmitted() -> WorkSite {
        var function: UnsafePointer<CChar>?
        let site = csched_work_take_submitted_site(&function)
        return WorkSite(location: PackedCodeLocation(rawBits: site), function: function)
    }
}
