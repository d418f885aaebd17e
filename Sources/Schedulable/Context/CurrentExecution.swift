import CSchedulableContext
import Dispatch

/// The queue-specific key every library queue carries, so that work submitted straight to the
/// `DispatchQueue` (behind the library's back) is still recognised.
let scheduleContextQueueKey = DispatchSpecificKey<ScheduleContext>()

/// The library context of the dispatch queue running the current code (or of a queue it targets).
///
/// Touches ``ScheduleContext/main`` first: that lazy initializer is what tags the main queue, and
/// main-queue work drained by `dispatchMain()` on a worker thread can be the first code in the
/// process to ask — before anything else has created the main context.
func currentQueueScheduleContext() -> ScheduleContext? {
    _ = ScheduleContext.main
    return DispatchQueue.getSpecific(key: scheduleContextQueueKey)
}

extension ScheduleContext {
    /// The exact answer when the fast path said "no".
    @usableFromInline
    func _isCurrentSlow() -> Bool {
        // 1. Frames the library pushed on this thread, including a blocked synchronous caller's chain.
        var frame = csched_top_frame()
        while let current = frame {
            if let raw = current.pointee.context {
                let context = Unmanaged<ScheduleContext>.fromOpaque(raw).takeUnretainedValue()
                if context.isWithin(self) { return true }
            }
            frame = current.pointee.outer
        }
        switch kind {
        case .main:
            // Top-level code and work the main run loop drains run on the main thread itself.
            if csched_is_main_thread() {
                csched_adopt_main_context()
                return true
            }
        case .thread:
            // A plain thread's own context: its id is the thread's never-reused unique id.
            if UInt(csched_thread_unique_id()) == id { return true }
        case .queue, .threadScheduler, .custom:
            break
        }
        // 2. Work submitted directly to a library queue (or a queue targeting one, or the main queue
        //    after `dispatchMain()`, which Linux drains on a worker thread). `getSpecific` walks the
        //    current queue's target chain, so a branch's raw work finds the branch's context.
        if let context = currentQueueScheduleContext(), context.isWithin(self) {
            return true
        }
        return false
    }

    /// The innermost context the current code runs in, for binding a detached object on first use:
    /// a library scheduler's work, else the main thread, else a library queue reached directly, else
    /// the current plain thread.
    package static var current: ScheduleContext {
        if let raw = csched_top_frame()?.pointee.context {
            return Unmanaged<ScheduleContext>.fromOpaque(raw).takeUnretainedValue()
        }
        if csched_is_main_thread() {
            csched_adopt_main_context()
            return .main
        }
        if let context = currentQueueScheduleContext() {
            return context
        }
        return currentThread
    }

    /// The context of code that runs outside any library frame, if it has one: the main thread, a
    /// library queue reached directly, or a plain thread that objects were bound to.
    package static var unframedCurrent: ScheduleContext? {
        if csched_is_main_thread() { return .main }
        if let context = currentQueueScheduleContext() { return context }
        if csched_current_id() != 0 { return currentThread }
        return nil
    }

    /// A context that stands for the calling plain thread and nothing else.
    package static var currentThread: ScheduleContext {
        let id = UInt(csched_thread_unique_id())
        csched_adopt_base_context(id)
        return ScheduleContext(label: describeCurrentThread(), parent: nil, kind: .thread, id: id)
    }

    /// A description of where the current code runs, for the "actual context" line of a report:
    /// the library scheduler running now, else "main thread", else the dispatch queue's label, else
    /// the OS thread id and name.
    package static func describeCurrentExecution() -> String {
        if let raw = csched_top_frame()?.pointee.context {
            return Unmanaged<ScheduleContext>.fromOpaque(raw).takeUnretainedValue().description
                + " (\(describeCurrentThread()))"
        }
        if csched_is_main_thread() { return "main thread" }
        if let context = currentQueueScheduleContext() {
            return context.description + " (\(describeCurrentThread()))"
        }
        let queueLabel = String(cString: csched_current_queue_label())
        // With no current queue libdispatch answers with a root (global) queue's label; a worker of a
        // global queue is named after it anyway, so the thread line says everything.
        if !queueLabel.isEmpty && !queueLabel.hasPrefix("com.apple.root.") {
            return "queue \"\(queueLabel)\" (\(describeCurrentThread()))"
        }
        return describeCurrentThread()
    }

    package static func describeCurrentThread() -> String {
        var name = [CChar](repeating: 0, count: 64)
        let tid = csched_os_thread_id()
        let hasName = name.withUnsafeMutableBufferPointer { buffer in
            csched_thread_name(buffer.baseAddress!, UInt(buffer.count))
        }
        if hasName {
            let text = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return "thread \(tid) \"\(text)\""
        }
        return "thread \(tid)"
    }
}
