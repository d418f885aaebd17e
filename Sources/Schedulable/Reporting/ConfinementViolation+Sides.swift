/// Both sides of a wrong-context violation besides the object's: what the owner was running when the
/// violation was detected, and who the intruder is (issue 38; the Reporting Violations article).
extension ConfinementViolation {
    /// What the owner's context was running at the moment of the violation: a snapshot, read without a
    /// lock from the slot the owner's thread publishes its work item in, so the owner may have finished
    /// (or started something else) by the time the report is read.
    ///
    /// The work item is the one ``Intruder`` names for the calling code (both decode the context's
    /// published work site); this type is the other side of it: a context read from outside, which may
    /// be idle, draining work the library did not schedule, or unreadable, and has been running for a
    /// while — states that the calling code's own side never has.
    package struct OwnerActivity: Sendable, Hashable, CustomStringConvertible {
        /// What the snapshot found.
        package enum State: String, Sendable, Hashable {
            /// Running work scheduled through this package (``OwnerActivity/scheduledAt`` says where
            /// from, when the scheduler was told).
            case running
            /// Running nothing: no work of this package, and nothing else the library can see.
            case idle
            /// Running no work of this package, but its queue was draining other work (raw dispatch
            /// blocks): libdispatch's drain lock, read where the library can read it (Linux).
            case runningOtherWork
            /// Running no work of this package; whether it ran anything else cannot be read here (the
            /// main thread's run loop, a plain thread, a queue whose drain lock is not readable).
            case notRunningLibraryWork
            /// The owner changed work items during every attempt to read them.
            case unreadable
        }

        /// What the snapshot found.
        package var state: State
        /// Where the running work item was scheduled from (`#fileID` and line), when known.
        package var scheduledAt: CodeLocation?
        /// The function that scheduled it (`#function`), when known.
        package var function: String?
        /// How long the work item had been running when the violation was detected, in nanoseconds.
        package var runningForNanoseconds: UInt64?
        /// The OS id of the thread draining the owner's queue, for ``State/runningOtherWork``.
        package var drainingThread: UInt64?

        /// Creates a snapshot (the library makes them; handlers and tests may too).
        ///
        /// - Parameters:
        ///   - state: What the snapshot found.
        ///   - scheduledAt: Where the running work item was scheduled from.
        ///   - function: The function that scheduled it.
        ///   - runningForNanoseconds: How long it had been running.
        ///   - drainingThread: The thread draining the owner's queue.
        package init(
            state: State, scheduledAt: CodeLocation? = nil, function: String? = nil,
            runningForNanoseconds: UInt64? = nil, drainingThread: UInt64? = nil
        ) {
            self.state = state
            self.scheduledAt = scheduledAt
            self.function = function
            self.runningForNanoseconds = runningForNanoseconds
            self.drainingThread = drainingThread
        }

        /// The report's words, e.g. `running work scheduled at Uploads.swift:88 in enqueue(_:) (started
        /// 3 ms before)`.
        package var description: String {
            switch state {
            case .running:
                let started = runningForNanoseconds.map { ", started \(Self.duration($0)) before" } ?? ""
                guard let scheduledAt else {
                    return "running work whose scheduling site it was not told (a direct trySchedule, a sync, "
                        + "a custom scheduler)\(started)"
                }
                return "running work scheduled at \(scheduledAt)" + (function.map { " in \($0)" } ?? "") + started
            case .idle:
                return "idle"
            case .runningOtherWork:
                return "running work not scheduled through this package (its queue was draining on thread "
                    + "\(drainingThread.map(String.init) ?? "?"))"
            case .notRunningLibraryWork:
                return "running no work scheduled through this package (whether it ran other code cannot be read here)"
            case .unreadable:
                return "changing work items while read"
            }
        }

        /// `nanoseconds` in the largest unit that keeps it readable: `800 ns`, `12 µs`, `3 ms`, `2 s`.
        static func duration(_ nanoseconds: UInt64) -> String {
            if nanoseconds < 1_000 { return "\(nanoseconds) ns" }
            if nanoseconds < 1_000_000 { return "\(nanoseconds / 1_000) µs" }
            if nanoseconds < 10_000_000_000 { return "\(nanoseconds / 1_000_000) ms" }
            return "\(nanoseconds / 1_000_000_000) s"
        }

        var value: ConfinementViolation.FieldValue {
            typealias Field = ConfinementViolation.Field
            var fields = [Field("state", state.rawValue)]
            fields.append("scheduledAt", scheduledAt.map(ConfinementViolation.FieldValue.location))
            fields.append("function", function.map(ConfinementViolation.FieldValue.string))
            fields.append("runningForNanoseconds", runningForNanoseconds.map(ConfinementViolation.FieldValue.number))
            fields.append("drainingThread", drainingThread.map(ConfinementViolation.FieldValue.number))
            return .object(fields)
        }
    }

    /// The code that made the violating access: its work item when a library scheduler runs it, its
    /// Swift task, its thread.
    ///
    /// The library's one answer to "what work is running here": a report's intruder side, and what an
    /// observation step says its new user was running (the observation file's `work` and `taskName`).
    package struct Intruder: Sendable, Hashable, CustomStringConvertible {
        /// The library context whose work the thread runs (its description), if any.
        package var context: String?
        /// Where that work item was scheduled from, when known.
        package var scheduledAt: CodeLocation?
        /// The function that scheduled it, when known.
        package var function: String?
        /// Whether the access ran in a Swift task.
        package var inTask: Bool
        /// The task's name (`Task.name`, where the runtime has it), if any.
        package var taskName: String?
        /// The OS thread id.
        package var thread: UInt64
        /// The thread's name, as reports give it (see the Reporting Violations article).
        package var threadName: String?
        /// The quality of service, where the platform tells it (a pool thread's root queue on Linux).
        package var qos: String?

        /// Creates an intruder (the library makes them; handlers and tests may too).
        ///
        /// - Parameters:
        ///   - context: The library context whose work the thread runs.
        ///   - scheduledAt: Where that work item was scheduled from.
        ///   - function: The function that scheduled it.
        ///   - inTask: Whether the access ran in a Swift task.
        ///   - taskName: The task's name.
        ///   - thread: The OS thread id.
        ///   - threadName: The thread's name.
        ///   - qos: The quality of service.
        package init(
            context: String? = nil, scheduledAt: CodeLocation? = nil, function: String? = nil, inTask: Bool,
            taskName: String? = nil, thread: UInt64, threadName: String? = nil, qos: String? = nil
        ) {
            self.context = context
            self.scheduledAt = scheduledAt
            self.function = function
            self.inTask = inTask
            self.taskName = taskName
            self.thread = thread
            self.threadName = threadName
            self.qos = qos
        }

        /// The report's words, e.g. `task "Upload batch 3" on thread 4243 "com.apple.root.default-qos"
        /// (qos default)`.
        package var description: String {
            var parts: [String] = []
            if let context {
                if let scheduledAt {
                    parts.append("work of \(context) scheduled at \(scheduledAt)" + (function.map { " in \($0)" } ?? ""))
                } else {
                    parts.append("work of \(context)")
                }
            }
            if inTask {
                parts.append(taskName.map { "task \"\($0)\"" } ?? "a task without a name")
            } else {
                parts.append("no task")
            }
            var text = parts.joined(separator: ", ") + ", on thread \(thread)"
            if let threadName { text += " \"\(threadName)\"" }
            if let qos { text += " (qos \(qos))" }
            return text
        }

        var value: ConfinementViolation.FieldValue {
            typealias Field = ConfinementViolation.Field
            typealias Value = ConfinementViolation.FieldValue
            var fields: [Field] = []
            fields.append("context", context.map(Value.string))
            fields.append("scheduledAt", scheduledAt.map(Value.location))
            fields.append("function", function.map(Value.string))
            fields.append(Field("inTask", .boolean(inTask)))
            fields.append("taskName", taskName.map(Value.string))
            fields.append(Field("thread", .number(thread)))
            fields.append("threadName", threadName.map(Value.string))
            fields.append("qos", qos.map(Value.string))
            return .object(fields)
        }
    }
}
