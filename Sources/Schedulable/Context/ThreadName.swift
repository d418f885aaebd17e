import CSchedulableContext

/// The name reports give the calling thread: never the stub the kernel keeps.
///
/// Linux keeps 15 bytes of a thread's name, so a GCD worker created for
/// `com.apple.root.default-qos.overcommit` is named `-qos.overcommit`, and a thread scheduler's long
/// label loses its tail. Darwin names no GCD worker at all. So, in order:
/// 1. the full name the library gave the thread (a thread scheduler's label, kept in a thread-local);
/// 2. for a GCD worker (no name, or a truncated root queue label), the label of the queue whose work
///    it runs — the serial queue's, else the whole root queue label its stub was cut from;
/// 3. the system's name (`pthread_getname_np`).
package enum ThreadName {
    /// The calling thread's name for reports, or `nil` when it has none.
    package static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let hasName = buffer.withUnsafeMutableBufferPointer { csched_thread_name($0.baseAddress!, UInt($0.count)) }
        let systemName = hasName ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : ""
        if csched_thread_has_library_name() { return systemName }
        let queueLabel = String(cString: csched_current_queue_label())
        let stubOf = rootQueueLabel(truncatedTo: systemName)
        if systemName.isEmpty || stubOf != nil {
            if !queueLabel.isEmpty && !queueLabel.hasPrefix(rootQueuePrefix) { return queueLabel }
            if let stubOf { return queueLabel.hasSuffix(systemName) ? queueLabel : stubOf }
        }
        return systemName.isEmpty ? nil : systemName
    }

    private static let rootQueuePrefix = String(cString: csched_root_queue_label_prefix())

    /// The labels of libdispatch's root (global) queues, which name their worker threads.
    private static let rootQueueLabels: [String] = {
        let classes = ["maintenance", "background", "utility", "default", "user-initiated", "user-interactive"]
        return classes.flatMap { [rootQueuePrefix + $0 + "-qos", rootQueuePrefix + $0 + "-qos.overcommit"] }
    }()

    /// The root queue label whose last 15 bytes (Linux's limit) are `name`, if any.
    private static func rootQueueLabel(truncatedTo name: String) -> String? {
        guard name.utf8.count == 15 else { return nil }
        return rootQueueLabels.first { $0.hasSuffix(name) }
    }
}
