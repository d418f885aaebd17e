import CSchedulableContext

/// Construction windows opened by a Swift task in raw dispatch work (on the cooperative pool, or in a
/// raw queue's `sync` called from the task): they belong to the task, not to a thread.
///
/// A task runs on whichever pool thread is free and moves after each `await`, and one pool thread runs
/// many unrelated tasks; a window keyed by the thread would follow neither. (A task running in library
/// work or on the main thread opens that work's or thread's window, as any code does.) So an object
/// created by a task on the pool may be used before
/// its owner does by that task — on any thread, across suspensions — and by nothing else, until the
/// task hands work to a library scheduler (then the object can be in use elsewhere), the owner first
/// uses the object, or ``Confinement/endConstruction()``. The key is the task's id, which the runtime
/// never reuses in a process.
///
/// A window also belongs to the executor the task ran on when it opened (the runtime's current
/// executor: an actor, the main actor, or the generic one). A task that hops to another executor takes
/// its objects where other code can reach them, as surely as a hand-off does: the first check or
/// creation of an object by the task on another executor ends the window (the verdict's rule 11), for
/// good, and the task's later objects get a new one. What ends it is which executor runs the code,
/// never timing.
///
/// A window is an object (``TaskWindow``) that every record created in it retains through its state
/// word, so the window lives exactly as long as records are in it, plus one per thread: each thread
/// caches the last window it handed out, which makes creating objects in a loop cost two atomic
/// reference-count operations and no lock. A table finds a task's open window when the task hands
/// work off; it holds windows weakly, and an entry goes when its window does.
package enum TaskConstructionWindows {
    /// The bit that marks an epoch as a task's: the rest of the epoch is its window's address (bit 61
    /// of a 64-bit word, 29 of a 32-bit one: see ``ConfinementState``).
    static let taskFlag: UInt = 1 << (UInt.bitWidth - 3)

    /// How far a window's address is shifted right in its epoch: not at all in a 64-bit word (user
    /// addresses are below 2^48); by 3 in a 32-bit one, whose addresses may use every bit, so that the
    /// address fits below the tag bits (a heap object is at least 8-byte aligned: `malloc`'s minimum).
    static let addressShift: UInt = UInt.bitWidth == 64 ? 0 : 3

    /// A table entry: the task's window, not kept alive by the table.
    struct WeakWindow {
        weak var window: TaskWindow?
    }

    static let table: LockedValue<[UInt64: WeakWindow]> = {
        csched_set_task_window_closer { task in TaskConstructionWindows.close(task: task) }
        return LockedValue([:])
    }()

    /// The epoch of a new record created by `task`: its open window (retained for the record).
    static func open(task: UInt64) -> UInt {
        let executor = PlatformInternals.currentExecutorIdentity
        if let cached = csched_task_window_cached(task) {
            let window = Unmanaged<TaskWindow>.fromOpaque(cached)
            if window._withUnsafeGuaranteedRef({ $0.isOpen && $0.executor == executor }) { return epoch(of: window.retain()) }
        }
        let window = table.withLock { table -> TaskWindow in
            if let open = table[task]?.window, open.isOpen {
                if open.executor == executor { return open }
                open.close()            // the task left the executor it opened the window on
            }
            let window = TaskWindow(task: task, executor: executor)
            table[task] = WeakWindow(window: window)
            csched_set_task_windows_open(UInt(table.count))
            return window
        }
        if let previous = csched_task_window_cache_swap(task, Unmanaged.passRetained(window).toOpaque()) {
            Unmanaged<TaskWindow>.fromOpaque(previous).release()
        }
        return epoch(of: Unmanaged.passRetained(window))
    }

    private static func epoch(of window: Unmanaged<TaskWindow>) -> UInt {
        (UInt(bitPattern: window.toOpaque()) >> addressShift) | taskFlag
    }

    private static func window(ofEpoch epoch: UInt) -> Unmanaged<TaskWindow> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: (epoch & ~taskFlag) << addressShift)!)
    }

    /// Whether the calling code runs in the task that opened window `epoch`, while it is still open,
    /// and on which executor (the record whose word holds `epoch` keeps the window alive).
    static func here(_ epoch: UInt) -> ConstructionWindowHere {
        let task = PlatformInternals.currentTaskID
        guard task != 0 else { return .none }
        return window(ofEpoch: epoch)._withUnsafeGuaranteedRef { window in
            guard window.task == task, window.isOpen else { return .none }
            return window.executor == PlatformInternals.currentExecutorIdentity ? .open : .creatingTaskOnAnotherExecutor
        }
    }

    /// Closes window `epoch` for good: its task runs on another executor (the verdict's rule 11).
    static func close(_ epoch: UInt) {
        window(ofEpoch: epoch)._withUnsafeGuaranteedRef { $0.close() }
    }

    /// A record created in window `epoch` left it (its window ended, or it was freed).
    static func recordLeft(_ epoch: UInt) {
        window(ofEpoch: epoch).release()
    }

    /// `task` handed work to a library scheduler: its open window closes.
    static func close(task: UInt64) {
        let window = table.withLock { table -> TaskWindow? in
            let window = table.removeValue(forKey: task)?.window
            csched_set_task_windows_open(UInt(table.count))
            return window
        }
        window?.close()
    }

    /// A window is gone: its entry goes too, unless the task has a newer one.
    fileprivate static func forget(task: UInt64) {
        table.withLock { table in
            guard let entry = table[task], entry.window == nil else { return }
            table[task] = nil
            csched_set_task_windows_open(UInt(table.count))
        }
    }
}

/// One task's construction window, shared by the records the task creates while it is open.
final class TaskWindow {
    /// 1 while open, 0 once closed. The first stored property (see ``AtomicWord``).
    private var state: AtomicWord
    /// The task's id.
    let task: UInt64
    /// The identity of the executor the task ran on when the window opened (0: the generic executor).
    let executor: UInt

    init(task: UInt64, executor: UInt) {
        self.state = AtomicWord(1)
        self.task = task
        self.executor = executor
    }

    /// Whether the window is still open.
    var isOpen: Bool { AtomicWord.loadAcquiring(firstIn: self) == 1 }

    /// Closes the window for good.
    func close() { AtomicWord.storeReleasing(0, firstIn: self) }

    deinit { TaskConstructionWindows.forget(task: task) }
}

// `state` is only read and written through AtomicWord's atomic functions; `task` and `executor` are
// immutable.
extension TaskWindow: @unchecked Sendable {}
