import CSchedulableContext

extension Observation {
    /// What the calling code runs in, as observation records it (``CurrentExecution/observed``): the kind
    /// of context and its label, so that a run can say which scheduler, queue or thread used an object.
    ///
    /// Two observed contexts are the same when their kind and ``identity`` are: a library context, a task
    /// and a thread by their never-reused ids; the main thread, a raw queue and a pool by their label (the
    /// library has no identity of its own for a queue it does not own).
    package struct Context: Hashable, Sendable {
        /// The kinds a context is observed as (the observation file's `kind`).
        package enum Kind: String, Sendable {
            /// The main thread.
            case main
            /// A library scheduler (a queue or thread scheduler, or a custom one).
            case scheduler
            /// A serial dispatch queue the library does not own, by its label.
            case queue
            /// A concurrent pool thread outside any task: never an owner.
            case pool
            /// A Swift task: each task is a context of its own.
            case task
            /// A plain thread.
            case thread
        }

        /// The kind.
        package var kind: Kind
        /// The label: a scheduler's or queue's label, `main thread`, `task <id>`, a thread's description.
        package var label: String
        /// Tells contexts of one kind apart: a context's, task's or thread's id; 0 where the label does.
        package var identity: UInt64

        package init(kind: Kind, label: String, identity: UInt64 = 0) {
            self.kind = kind
            self.label = label
            self.identity = identity
        }

        /// The observed form of a library context (a frame's, or a declared owner).
        package init(_ context: ExecutionContext) {
            switch context.kind {
            case .main: self.init(kind: .main, label: "main thread")
            case .thread: self.init(kind: .thread, label: context.label, identity: UInt64(context.id))
            case .queue where context.isRawQueue:
                self.init(kind: .queue, label: context.label)
            case .queue, .threadScheduler, .custom:
                self.init(kind: .scheduler, label: context.label, identity: UInt64(context.id))
            }
        }

        package static func == (lhs: Context, rhs: Context) -> Bool {
            lhs.kind == rhs.kind && lhs.identity == rhs.identity && (lhs.identity != 0 || lhs.label == rhs.label)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            if identity != 0 { hasher.combine(identity) } else { hasher.combine(label) }
        }
    }
}

extension CurrentExecution {
    /// The calling code's context as observation records it: the resolver's innermost layer (a raw
    /// `queue.sync {}` from the main thread is that queue's, see ``CurrentExecution``) — a library or
    /// named context, a raw queue by its label, the main thread; outside all of them the Swift task,
    /// a pool thread, the plain thread.
    package static var observed: Observation.Context {
        switch innermost {
        case .frame(let context, _), .queue(let context):
            return Observation.Context(context)
        case .rawQueue(let label):
            return Observation.Context(kind: .queue, label: String(cString: label))
        case .mainThread:
            return Observation.Context(kind: .main, label: "main thread")
        case .thread(let id):
            let task = PlatformInternals.currentTaskID
            if task != 0 { return Observation.Context(kind: .task, label: "task \(task)", identity: task) }
            if PlatformInternals.runningOnPool {
                let label = String(cString: csched_current_queue_label())
                return Observation.Context(kind: .pool, label: label.isEmpty ? "pool" : label)
            }
            return Observation.Context(kind: .thread, label: threadDescription, identity: UInt64(id))
        }
    }
}
