import CSchedulableContext

/// Finds which `@Confined` storage a property key path reaches, by reading the property once
/// on a thread that may (the owner, or the thread building the object) with this thread's probe slot
/// set: the wrapper's slow path records its declaration site there instead of checking (rule 1 of the
/// verdict, `CurrentHere.recordIfProbing(_:)`).
///
/// The key path itself cannot be handed to the wrapper's slow path: any use of it there makes the
/// optimizer materialize (and retain and release) the key path on every access, fast path included.
///
/// What a probe finds is the same for every object of the type, so it is kept per key path
/// (``cachedSite``): only the first object of a type is ever read, and a later object's options apply
/// from its first access — even when that access is off the owner, where nothing may be read.
package struct PropertyProbe: Sendable {
    package let writtenAt: CodeLocation
    /// The key path, as the key of what probes found (never handed to a wrapper).
    let keyPath: AnyKeyPath & Sendable
    let read: @Sendable (AnyObject) -> Void

    init(writtenAt: CodeLocation, keyPath: AnyKeyPath & Sendable, read: @escaping @Sendable (AnyObject) -> Void) {
        self.writtenAt = writtenAt
        self.keyPath = keyPath
        self.read = read
    }

    /// What earlier probes found: key path → the declaration site of the wrapper it reaches.
    private static let found = LockedValue([AnyKeyPath: PackedCodeLocation]())

    /// The declaration site an earlier probe of this key path found (on any object), if any.
    var cachedSite: PackedCodeLocation? {
        Self.found.withLock { $0[keyPath] }
    }

    /// The declaration site of the wrapper that `read` reaches on `object`, or `nil` if it reaches none.
    /// Reads the property only the first time a key path is probed.
    func declarationSite(on object: AnyObject) -> PackedCodeLocation? {
        if let site = cachedSite { return site }
        guard let site = probe(object) else { return nil }
        Self.found.withLock { $0[keyPath] = site }
        return site
    }

    private func probe(_ object: AnyObject) -> PackedCodeLocation? {
        var recorded: PackedCodeLocation?
        withUnsafeMutablePointer(to: &recorded) { slot in
            let previous = csched_probe_swap(UnsafeMutableRawPointer(slot))
            defer { _ = csched_probe_swap(previous) }
            read(object)
        }
        return recorded
    }
}
