import CSchedulableContext

/// Finds which `@Confined` storage a property key path reaches, by reading the property once
/// on a thread that may (the owner, or the thread building the object) with this thread's probe slot
/// set: the wrapper's slow path records its declaration site there instead of checking.
///
/// The key path itself cannot be handed to the wrapper's slow path: any use of it there makes the
/// optimizer materialize (and retain and release) the key path on every access, fast path included.
package struct PropertyProbe: Sendable {
    package let writtenAt: CodeLocation
    let read: @Sendable (AnyObject) -> Void

    init(writtenAt: CodeLocation, read: @escaping @Sendable (AnyObject) -> Void) {
        self.writtenAt = writtenAt
        self.read = read
    }

    /// The declaration site of the wrapper that `read` reaches on `object`, or `nil` if it reaches none.
    func declarationSite(on object: AnyObject) -> CompactCodeLocation? {
        var recorded: CompactCodeLocation?
        withUnsafeMutablePointer(to: &recorded) { slot in
            let previous = csched_probe_swap(UnsafeMutableRawPointer(slot))
            defer { _ = csched_probe_swap(previous) }
            read(object)
        }
        return recorded
    }

    /// Records `site` if a probe runs on this thread; returns whether one did (and the check is skipped).
    static func recordIfProbing(_ site: CompactCodeLocation) -> Bool {
        guard let slot = csched_probe_slot() else { return false }
        let recorded = slot.assumingMemoryBound(to: CompactCodeLocation?.self)
        if recorded.pointee == nil { recorded.pointee = site }
        return true
    }
}
