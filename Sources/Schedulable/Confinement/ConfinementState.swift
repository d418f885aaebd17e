import CSchedulableContext

/// The state machine of a confinement record, in the one word the fast path reads.
///
/// *detached* (no owner; the next checked use binds one) → *bound*. While bound, two temporary states
/// make every check take the slow path: the *construction window* (the work that created the record
/// may use the object until it hands work to a library scheduler, or until the owner first uses it)
/// and *unresolved options* (property options not yet matched to wrappers). Once both are over the
/// word is *settled*: it holds the owner's context id, which is what the fast path compares with the
/// thread's token, and what a legitimate slow path (raw work on the owner's queue, a branch of a
/// tree owner, the main queue under `dispatchMain()`) checks without taking any lock.
///
/// The encoding, for a 64-bit word (a 32-bit word, arm64_32 watchOS or 32-bit Linux, has the same tags
/// 32 bits lower: they are counted from the top, `UInt.bitWidth - n`): context ids are below 2^62; a
/// construction window is its epoch with the top bit set — a thread's or a library work item's epoch
/// from `csched_open_construction_epoch` (below 2^61; bit 60 marks a work item's), or a task's window
/// (bit 61 set, the rest its window object's address, see ``TaskConstructionWindows``); the three
/// remaining states are the three largest words. No thread token ever equals a non-settled word, so the
/// fast path needs no branch on the state.
struct ConfinementState: Equatable {
    let word: UInt

    /// No owner yet.
    static let detached = ConfinementState(word: .max)
    /// Bound, window closed, property options still to be matched at the next legitimate use.
    static let unresolved = ConfinementState(word: .max - 1)
    /// Bound, and observed (``Confinement/observed(file:line:)``): never settled, so that every use is
    /// judged by the verdict — the thread's token cannot see a raw `queue.sync {}` the use runs in.
    static let observing = ConfinementState(word: .max - 2)
    /// The top bit (63 of a 64-bit word, 31 of a 32-bit one).
    private static let constructingFlag: UInt = 1 << (UInt.bitWidth - 1)

    private init(word: UInt) { self.word = word }

    /// The state a word read from a record stands for.
    init(loadedWord word: UInt) { self.word = word }

    /// Bound to the context `id`, with nothing left to do: the fast path's state.
    static func settled(_ id: UInt) -> ConfinementState { ConfinementState(word: id) }

    /// Bound, and the thread in construction epoch `epoch` may still use the object.
    static func constructing(epoch: UInt) -> ConfinementState { ConfinementState(word: constructingFlag | epoch) }

    /// The owner's context id when settled.
    var settledID: UInt? { word & Self.constructingFlag == 0 ? word : nil }

    /// The construction epoch when the window is open.
    var constructionEpoch: UInt? {
        guard word & Self.constructingFlag != 0, self != .detached, self != .unresolved, self != .observing else { return nil }
        return word & ~Self.constructingFlag
    }

    /// Whether the calling code is the work still building the object: the task that created the
    /// record (its window still open; on the executor it created the record on, or not), or the same
    /// thread with no hand-off to a library scheduler since and still in the same work — the library
    /// work item that created it, or for a thread's epoch the same dispatch queue's work (or none).
    var constructionWindowHere: ConstructionWindowHere {
        guard let epoch = constructionEpoch else { return .none }
        if epoch & TaskConstructionWindows.taskFlag != 0 { return TaskConstructionWindows.here(epoch) }
        return csched_in_construction_epoch(uintptr_t(epoch)) ? .open : .none
    }

    /// The epoch of a task's window, when this is one (see ``TaskConstructionWindows``).
    ///
    /// One shift and a compare (it runs in every record's `deinit`): a task's window has bits 63 and
    /// 61 set and bit 62 clear (31, 29 and 30 of a 32-bit word) — epochs are below 2^62, and the three
    /// largest words (detached, unresolved, observing) have bit 62 set.
    var taskWindowEpoch: UInt? {
        word >> (UInt.bitWidth - 3) == 0b101 ? word & ~Self.constructingFlag : nil
    }

    /// A construction window for a new record, or `nil` where there is none: the running library
    /// work's, or the main or plain thread's (`csched_open_construction_epoch`); in raw dispatch work,
    /// the running task's, and none outside a task — nothing shows where a raw block ends, so the
    /// record is bound to its owner at once.
    private static func openWindowHere() -> ConfinementState? {
        let epoch = UInt(csched_open_construction_epoch())
        if epoch != 0 { return .constructing(epoch: epoch) }
        let task = PlatformInternals.currentTaskID
        return task == 0 ? nil : .constructing(epoch: TaskConstructionWindows.open(task: task))
    }

    /// The one decision whether a new record bound to `owner` opens a construction window here
    /// (TM "Construct here, use there"): only off the owner — on the owner the first use would end it at
    /// once — and only where a window exists (``openWindowHere()``). Asked once per record, by the record
    /// factory (`ConfinementRecord.make`).
    @inline(__always)
    static func openWindow(for owner: ExecutionContext) -> ConfinementState? {
        _CurrentToken.isCurrent(owner.id) ? nil : openWindowHere()
    }

    /// The state of a bound record once its construction window is over.
    static func bound(to owner: ExecutionContext, needsResolution: Bool) -> ConfinementState {
        needsResolution ? .unresolved : .settled(owner.id)
    }
}
