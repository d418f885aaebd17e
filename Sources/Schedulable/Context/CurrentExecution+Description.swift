import CSchedulableContext

/// How the calling code is named in reports: the resolver's innermost layer, in words.
extension CurrentExecution {
    /// Where the calling code runs, for the "actual context" line of a report: the library context
    /// running now, else "main thread", else the dispatch queue's label, else the OS thread id and name.
    package static var description: String {
        switch innermost {
        case .frame(let context, _), .queue(let context):
            return context.description + " (\(threadDescription))"
        case .rawQueue(let label):
            return "queue \"\(label)\" (\(csched_is_main_thread() ? "main thread" : threadDescription))"
        case .mainThread:
            return "main thread"
        case .thread:
            // A worker of a global queue is named after it anyway, so the thread line says everything.
            if let queueLabel = nonRootQueueLabel { return "queue \"\(queueLabel)\" (\(threadDescription))" }
            return threadDescription
        }
    }

    /// The label of the dispatch queue whose work the calling code runs, unless it is a root (global)
    /// queue's: with no current queue libdispatch answers with a root queue's label too. `nil` then.
    package static var nonRootQueueLabel: String? {
        let label = String(cString: csched_current_queue_label())
        return label.isEmpty || PlatformInternals.isRootQueueLabel(label) == true ? nil : label
    }

    /// The OS thread id and name of the calling thread, e.g. `thread 4242 "com.app.business"` (the
    /// name as ``ThreadName`` chooses it).
    package static var threadDescription: String {
        let tid = csched_os_thread_id()
        guard let name = ThreadName.current else { return "thread \(tid)" }
        return "thread \(tid) \"\(name)\""
    }
}
