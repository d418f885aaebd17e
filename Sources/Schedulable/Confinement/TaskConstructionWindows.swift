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
        if let cached = csched_task_window_cached(task) {
            let window = Unmanaged<TaskWindow>.fromOpaque(cached)
            if window._withUnsafeGuaranteedRef({ $0.isOpen }) { return epoch(of: window.retain()) }
        }
        let window = table.withLock { table -> TaskWindow in
            if let open = table[task]?.window, open.isOpen { return open }
            let window = TaskWindow(task: task)
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

    /// Whether the calling code runs in the task that opened window `epoch`, and it is still open
    /// (the record whose word holds `epoch` keeps the window alive).
    static func isOpen(_ epoch: UInt) -> Bool {
        let task = PlatformInternals.currentTaskID
        return task != 0 && window(ofEpoch: epoch)._withUnsafeGuaranteedRef { $0.task == task && $0.isOpen }
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

    init(task: UInt64) {
        self.state = AtomicWord(1)
        self.task = task
    }

    /// Whether the window is still open.
    var isOpen: Bool { AtomicWord.loadAcquiring(firstIn: self) == 1 }

    /// Closes the window for good.
    func close() { AtomicWord.storeReleasing(0, firstIn: self) }

    deinit { TaskConstructionWindows.forget(task: task) }
}

// `state` is only read and written through AtomicWord's atomic functions; `task` is immutable.
extension TaskWindow: @unchecked Sendable {}
