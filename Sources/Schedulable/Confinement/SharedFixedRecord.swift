import CSchedulableContext

/// The one settled record that a library scheduler's fixed-owner objects share in a release build
/// without the debug tier (see ``Confinement``, "Fixed or transferable"). Made by the first such object,
/// kept in the scheduler's ``OnceSlot`` until the scheduler is freed.
///
/// Held by the scheduler, not by its ``ExecutionContext``: the record holds the context (its owner),
/// so a context holding it would be a cycle that freed neither. The scheduler holds only the slot; the
/// record keeps nothing alive but the context, like every record: a record never keeps its owner's scheduler alive.
/// Two schedulers that share a context (wrappers of one queue) keep a record each, both settled on the
/// same id.
enum SharedFixedRecord {
    /// The main thread's slot (`Confinement()`, `MainThreadScheduler`): it lives as long as the
    /// process, like the main thread's context.
    static let main = OnceSlot()

    /// The shared record of `scheduler`, settled on `owner` (its context), if it is a library
    /// scheduler; `nil` for a custom one (its objects get records of their own).
    @inline(__always)
    static func record(of scheduler: AnyObject, for owner: ExecutionContext) -> ConfinementRecord? {
        // Exact class tests: one load and a compare each, no conformance lookup. The slot is read
        // through the scheduler (which the caller holds), never returned: a returned slot was retained
        // and released around every lookup.
        let type = ObjectIdentifier(Swift.type(of: scheduler))
        if type == ObjectIdentifier(SerialQueueScheduler.self) {
            csched_note_shared_record_class(0, UInt(bitPattern: type))
            return record(in: unsafeDowncast(scheduler, to: SerialQueueScheduler.self).sharedFixedRecord, for: owner)
        }
        if type == ObjectIdentifier(ThreadScheduler.self) {
            csched_note_shared_record_class(1, UInt(bitPattern: type))
            return record(in: unsafeDowncast(scheduler, to: ThreadScheduler.self).sharedFixedRecord, for: owner)
        }
        if type == ObjectIdentifier(MainThreadScheduler.self) { return record(in: main, for: owner) }
        return nil
    }

    /// ``record(of:for:)`` where it costs no call: the record already made in the slot of a
    /// `SerialQueueScheduler` or `ThreadScheduler` whose class ``record(of:for:)`` has already met
    /// (`csched_shared_record_classes`); `nil` otherwise, and the caller takes its full path, which
    /// gives the same record when there is one. Comparing with `SerialQueueScheduler.self` is a call
    /// to its metadata accessor, and the registers saved around that call were most of the cost of
    /// creating an object on its owner.
    @inline(__always)
    static func madeRecord(of scheduler: AnyObject) -> Unmanaged<ConfinementRecord>? {
        // One branch per class, each reading its slot in place: a slot held in a local across the
        // branches was retained and released.
        let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: scheduler)))
        if type == csched_shared_record_class(0) {
            return madeRecord(in: unsafeDowncast(scheduler, to: SerialQueueScheduler.self).sharedFixedRecord)
        }
        if type == csched_shared_record_class(1) {
            return madeRecord(in: unsafeDowncast(scheduler, to: ThreadScheduler.self).sharedFixedRecord)
        }
        return nil
    }

    /// The record in `slot`, if it was made.
    @inline(__always)
    private static func madeRecord(in slot: OnceSlot) -> Unmanaged<ConfinementRecord>? {
        slot.madeObject.map { Unmanaged<ConfinementRecord>.fromOpaque($0) }
    }

    /// The shared record in `slot`, settled on `owner` (the slot's scheduler's context): once made,
    /// one load; the closure that makes it (which retains `owner`) is built only while the slot is empty.
    @inline(__always)
    static func record(in slot: OnceSlot, for owner: ExecutionContext) -> ConfinementRecord {
        madeRecord(in: slot)?.takeUnretainedValue() ?? make(in: slot, for: owner)
    }

    /// The first object's path of ``record(in:for:)``.
    @inline(never)
    private static func make(in slot: OnceSlot, for owner: ExecutionContext) -> ConfinementRecord {
        unsafeDowncast(
            slot.object {
                ConfinementRecord(owner: owner, state: .settled(owner.id), boundAt: .none, extras: nil, isFixed: true)
            },
            to: ConfinementRecord.self
        )
    }
}
