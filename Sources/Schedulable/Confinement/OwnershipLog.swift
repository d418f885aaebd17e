import CSchedulableContext

/// The changes of binding a record's history keeps (the debug tier's; release builds record none).
/// The raw values are the JSON Lines schema's `kind`; ``ConfinementViolation/History/OwnerChange``
/// gives each its words for the text report.
enum OwnershipEventKind: String, CaseIterable {
    /// ``Confinement/handOff(to:file:line:)``.
    case handOff
    /// ``Confinement/detach(file:line:)``.
    case detach
    /// A detached record bound by its first checked use.
    case boundByFirstUse
    /// An object bound for good when it was sent into a ``SchedulableObject``.
    case boundBySending
}

#if SCHEDULABLE_CHECKS
/// The thread a record was created on, in one word: the thread's never-reused unique id, with the top
/// bit set on the main thread. Cheap enough for every record (one call, one thread-local load, no
/// syscall, no string); the OS thread id and name are only known for threads that also made a later
/// event.
struct ThreadStamp: Equatable {
    let word: UInt
    private static let mainFlag: UInt = 1 << (UInt.bitWidth - 1)  // CSCHED_HISTORY_MAIN_THREAD_FLAG

    /// The calling thread.
    @inline(__always)
    static var current: ThreadStamp {
        ThreadStamp(word: UInt(csched_history_thread_stamp()))
    }

    /// The stamp whose word is `word` (tests build main-thread stamps with it).
    init(word: UInt) { self.word = word }

    /// The stamp in a word whose bit 0 is set, which no object's address has (how a record keeps it
    /// in the word that later holds its history): the unique id shifted up by two, the main-thread flag
    /// in bit 1. Unique ids count threads from 1, so they stay far below 2⁶².
    var tagged: UInt {
        uniqueID << 2 | (isMainThread ? 2 : 0) | 1
    }

    /// The stamp that ``tagged`` made `word`.
    init(tagged word: UInt) {
        assert(word & 1 == 1, "not a tagged thread stamp")
        self.word = word >> 2 | (word & 2 != 0 ? Self.mainFlag : 0)
    }

    /// Whether this is the process's main thread.
    var isMainThread: Bool { word & Self.mainFlag != 0 }

    /// The thread's unique id (see `csched_thread_unique_id`).
    var uniqueID: UInt { word & ~Self.mainFlag }
}

/// Where an event of a record's history ran: the thread, its OS id, and the library context running
/// there (a scheduler's frame, or a library queue reached directly), if any — else the thread's name,
/// as bytes. Taken only at rare events (hand-offs, bindings), so the system calls are affordable; no
/// string is built until a report.
struct ExecutionStamp {
    let thread: ThreadStamp
    let osThreadID: UInt64
    /// Strong, like a record's owner: a context keeps no queue or thread alive.
    let context: ExecutionContext?
    /// The thread's name (NUL-terminated, at most 15 bytes: Linux keeps no more) when no library
    /// context runs there; all zeros otherwise.
    let name: (UInt64, UInt64)

    /// Where the calling code runs now.
    static var current: ExecutionStamp {
        let context: ExecutionContext?
        switch CurrentExecution.innermost {
        case .frame(let layer, _), .queue(let layer): context = layer
        case .mainThread, .thread, .rawQueue: context = nil
        }
        var name: (UInt64, UInt64) = (0, 0)
        if context == nil {
            withUnsafeMutableBytes(of: &name) { bytes in
                _ = csched_thread_name(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt(bytes.count))
            }
        }
        return ExecutionStamp(thread: .current, osThreadID: csched_os_thread_id(), context: context, name: name)
    }

    /// The stamp as a report spells it: `main thread`, `queue "q" (thread 4242)`, `thread 4242 "name"`.
    var description: String {
        if let context, context.kind != .main { return "\(context.description) (thread \(osThreadID))" }
        if thread.isMainThread || context?.kind == .main { return "main thread" }
        var bytes = name
        let threadName = withUnsafeBytes(of: &bytes) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        // A dispatch worker is named after a root queue ("…-qos.overcommit", cut to 15 bytes), which
        // says nothing about the work it ran.
        if threadName.isEmpty || threadName.contains("-qos") { return "thread \(osThreadID)" }
        return "thread \(osThreadID) \"\(threadName)\""
    }
}

/// What a record has seen besides its current binding, for reports (debug tier only): where it was
/// created, its last few ownership events, and the last legitimate access its slow path observed.
///
/// Allocated by the record's first ownership event (a hand-off, a detach, a first-use binding, a
/// binding by ``SchedulableObject``), never at creation, so an object that never changes hands costs
/// no allocation for it. Guarded by the record's stripe, like the binding.
final class OwnershipLog {
    /// How many ownership events a history keeps: the latest ones.
    static let capacity = 4

    /// One ownership event.
    struct Event {
        let kind: OwnershipEventKind
        /// The owner after the event (`nil`: detached).
        let newOwner: ExecutionContext?
        let site: PackedCodeLocation
        let madeOn: ExecutionStamp
    }

    /// A legitimate access that a slow path saw.
    struct Access {
        /// The member, and with it the site (a method's call site, a property's declaration).
        let member: ConfinedMemberReference
        let madeOn: ExecutionStamp
    }

    /// Where the record was created.
    let createdAt: PackedCodeLocation
    /// The creating thread, and — when the first event ran on that same thread — its OS id and context.
    let createdOn: ThreadStamp
    private(set) var createdOnDetail: ExecutionStamp?
    /// Every event recorded, including the ones the ring no longer holds.
    private(set) var eventCount = 0
    // A ring of `capacity` events in stored properties, so a history is one allocation.
    private var event0, event1, event2, event3: Event?
    /// The last legitimate access a slow path that takes the record's lock saw.
    var lastLegitimateAccess: Access?

    init(createdAt: PackedCodeLocation, createdOn: ThreadStamp) {
        self.createdAt = createdAt
        self.createdOn = createdOn
    }

    /// Appends `event`, dropping the oldest beyond ``capacity``.
    func record(_ event: Event) {
        if eventCount == 0, event.madeOn.thread == createdOn { createdOnDetail = event.madeOn }
        switch eventCount % Self.capacity {
        case 0: event0 = event
        case 1: event1 = event
        case 2: event2 = event
        default: event3 = event
        }
        eventCount += 1
    }

    /// The events the ring holds, oldest first.
    var events: [Event] {
        let ring = [event0, event1, event2, event3]
        let kept = min(eventCount, Self.capacity)
        return (0..<kept).compactMap { ring[(eventCount - kept + $0) % Self.capacity] }
    }
}
#endif
