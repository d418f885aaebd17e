import CSchedulableContext

#if canImport(Darwin)
import Darwin
#endif

/// Reading both sides on the violating thread: a few loads and the thread's name, no lock, no stack.
extension ConfinementViolation.OwnerActivity {
    /// What `owner` runs now, as its slot and (for a queue) libdispatch's drain lock say; `nil` under
    /// the kill switch `SCHEDULABLE_DISABLE_OWNER_SIDE`, when no slot is written (idle is not known).
    package static func snapshot(of owner: ExecutionContext) -> Self? {
        guard csched_work_publishes() else { return nil }
        var work = csched_work_snapshot()
        guard csched_work_read(owner.workSlot, &work) else { return Self(state: .unreadable) }
        if work.started != 0 {
            var activity = Self(state: .running)
            activity.scheduledAt = PackedCodeLocation(rawBits: work.site).locationIfAny
            activity.function = work.function.map { String(cString: $0) }
            activity.runningForNanoseconds = csched_work_elapsed_ns(work.started)
            return activity
        }
        switch owner.kind {
        case .threadScheduler:
            return Self(state: .idle)   // its thread runs nothing but the library's events
        case .queue:
            guard let queue = owner.queue, let drainer = PlatformInternals.drainOwner(of: queue) else {
                return Self(state: .notRunningLibraryWork)
            }
            guard drainer != 0 else { return Self(state: .idle) }
            var activity = Self(state: .runningOtherWork)
            activity.drainingThread = drainer
            return activity
        case .main, .thread, .custom:
            return Self(state: .notRunningLibraryWork)
        }
    }
}

extension ConfinementViolation.Intruder {
    /// The calling code: where the resolver says it runs (``CurrentExecution``'s innermost layer: a
    /// raw `queue.sync {}` inside library work is that queue's), the library work item when that is a
    /// frame's, its task, its thread.
    package static var current: Self {
        var intruder = Self(inTask: false, thread: csched_os_thread_id(), threadName: ThreadName.current)
        switch CurrentExecution.innermost {
        case .frame(let context, _):
            intruder.context = context.description
            if let item = workItem(of: context) {
                intruder.scheduledAt = item.scheduledAt
                intruder.function = item.function
            }
        case .queue(let context):
            intruder.context = context.description
        case .rawQueue(let label):
            intruder.context = "queue \"\(String(cString: label))\""
        case .mainThread, .thread:
            break
        }
        intruder.inTask = withUnsafeCurrentTask { $0 != nil }
        if intruder.inTask { intruder.taskName = currentTaskName }
        intruder.qos = currentQoS
        return intruder
    }

    /// What `context`'s work slot says of the item this thread runs in it (a few loads, no lock).
    private static func workItem(of context: ExecutionContext) -> (scheduledAt: CodeLocation?, function: String?)? {
        var work = csched_work_snapshot()
        guard csched_work_read(context.workSlot, &work), work.started != 0 else { return nil }
        return (PackedCodeLocation(rawBits: work.site).locationIfAny, work.function.map { String(cString: $0) })
    }

    /// `Task.name` where the runtime has it (Swift 6.2: every Linux toolchain that builds this package;
    /// the 26 releases of Apple's OSes).
    static var currentTaskName: String? {
        #if canImport(Darwin)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return Task.name }
        return nil
        #else
        return Task.name
        #endif
    }

    /// The thread's QoS class: Darwin's `qos_class_self()`; on Linux, which has no QoS, the class of
    /// the root (global) queue whose work a pool thread runs, from its label; otherwise `nil`.
    private static var currentQoS: String? {
        #if canImport(Darwin)
        switch qos_class_self() {
        case QOS_CLASS_USER_INTERACTIVE: return "user-interactive"
        case QOS_CLASS_USER_INITIATED: return "user-initiated"
        case QOS_CLASS_DEFAULT: return "default"
        case QOS_CLASS_UTILITY: return "utility"
        case QOS_CLASS_BACKGROUND: return "background"
        default: return nil
        }
        #else
        let label = String(cString: csched_current_queue_label())
        guard PlatformInternals.isRootQueueLabel(label) == true else { return nil }
        if let known = rootQueueQoS[label] { return known }
        guard let qos = label.split(separator: ".").last(where: { $0.hasSuffix("-qos") }) else { return nil }
        return String(qos.dropLast(4))
        #endif
    }

    #if !canImport(Darwin)
    /// libdispatch's root queue labels and their classes (`com.apple.root.utility-qos.overcommit` →
    /// `utility`), looked up instead of split: every violation on a pool thread asks, and splitting a
    /// label is generic collection code, slow in a debug build where checks run by default.
    private static let rootQueueQoS: [String: String] = {
        var table: [String: String] = [:]
        for qos in ["maintenance", "background", "utility", "default", "user-initiated", "user-interactive"] {
            table["com.apple.root.\(qos)-qos"] = qos
            table["com.apple.root.\(qos)-qos.overcommit"] = qos
        }
        return table
    }()
    #endif
}
