import CSchedulableContext

/// Construction windows opened by a Swift task on the cooperative pool: they belong to the task, not
/// to a thread.
///
/// A task runs on whichever pool thread is free and moves after each `await`, and one pool thread runs
/// many unrelated tasks; a window keyed by the thread would follow neither. (A task running on a
/// serial context — the main actor, a library executor, inside a queue's `sync` — opens the thread's
/// window there, as any code does.) So an object created inside
/// a task may be used before its owner does by that task — on any thread, across suspensions — and by
/// nothing else, until the task hands work to a library scheduler (then the object can be in use
/// elsewhere), the owner first uses the object, or ``Confinement/endConstruction()``. The key is the
/// task's id, which the runtime never reuses in a process.
///
/// The table holds one entry per task with a window open, counting the records still in it; an entry
/// goes when the task hands work off, or when its last record leaves the window (closed, or freed), so
/// it never grows past the objects being built.
package enum TaskConstructionWindows {
    /// The bit that marks an epoch as a task's (epochs are below 2^61).
    static let taskFlag: UInt = 1 << 61

    private struct Window {
        var task: UInt64
        var records: Int
    }

    private struct Table {
        var windows: [UInt: Window] = [:]
        /// The open window of each task (a closed one stays in `windows` until its records leave).
        var openWindowOfTask: [UInt64: UInt] = [:]
    }

    private static let table: ScheduleLock<Table> = {
        csched_set_task_window_closer { task in TaskConstructionWindows.close(task: task) }
        return ScheduleLock(Table())
    }()

    /// The epoch for a new record created by `task`: the task's open window, or a new one.
    static func open(task: UInt64) -> UInt {
        table.withLock { table in
            if let epoch = table.openWindowOfTask[task] {
                table.windows[epoch]?.records += 1
                return epoch
            }
            let epoch = UInt(csched_draw_construction_epoch()) | taskFlag
            table.windows[epoch] = Window(task: task, records: 1)
            table.openWindowOfTask[task] = epoch
            publishCount(table)
            return epoch
        }
    }

    /// Whether the calling code runs in the task that opened window `epoch`, and it is still open.
    static func isOpen(_ epoch: UInt) -> Bool {
        let task = csched_current_task_id()
        guard task != 0 else { return false }
        return table.withLock { $0.openWindowOfTask[task] == epoch }
    }

    /// A record created in window `epoch` left it (its window ended, or it was freed).
    static func recordLeft(_ epoch: UInt) {
        table.withLock { table in
            guard var window = table.windows[epoch] else { return }
            window.records -= 1
            guard window.records == 0 else {
                table.windows[epoch] = window
                return
            }
            table.windows[epoch] = nil
            if table.openWindowOfTask[window.task] == epoch { table.openWindowOfTask[window.task] = nil }
            publishCount(table)
        }
    }

    /// `task` handed work to a library scheduler: its open window closes.
    static func close(task: UInt64) {
        table.withLock { table in
            guard table.openWindowOfTask.removeValue(forKey: task) != nil else { return }
            publishCount(table)
        }
    }

    /// How many windows are open now, for tests.
    package static var openCount: Int { table.withLock { $0.openWindowOfTask.count } }

    /// Tells `csched_note_publication` whether any task has a window to close (called under the lock).
    private static func publishCount(_ table: Table) {
        csched_set_task_windows_open(UInt(table.openWindowOfTask.count))
    }
}
