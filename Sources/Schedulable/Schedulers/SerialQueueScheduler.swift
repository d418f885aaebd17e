import CSchedulableContext
import Dispatch

/// A scheduler backed by a serial `DispatchQueue`: a *tree* (a serial queue for one subsystem, with its
/// own QoS) or a *branch* (a queue that targets a tree or another branch).
///
/// Work on a branch never overlaps with work on its tree or on any other branch of the same tree:
/// they all drain through the tree's queue. So an object owned by a tree may be used from any of its
/// branches, while an object owned by a branch may be used only on that branch and its sub-branches.
///
/// ```swift
/// let network = SerialQueueScheduler(label: "com.app.network", qos: .utility)
/// let images = network.branch("images")            // "com.app.network.images", QoS .utility
/// ```
public final class SerialQueueScheduler: SerialScheduler {
    /// The serial queue this scheduler submits to.
    ///
    /// Work submitted to it directly is still recognised by checks, through a queue-specific value.
    public let queue: DispatchQueue

    /// The scheduler's reverse-DNS label.
    public var label: String { executionContext.label }

    /// The quality of service of the queue.
    public let qos: DispatchQoS

    /// The scheduler this one is a branch of, or `nil` for a tree.
    public let parent: SerialQueueScheduler?

    /// The identity checks compare against.
    public let executionContext: ExecutionContext

    /// Delayed work and timers, kept in deadline order with a timer on ``queue``.
    let deadlines: DispatchDeadlines

    /// Whether the queue came from elsewhere (wrapped) and its exclusion must be watched.
    private let watchesExclusion: Bool
    /// The one-allocation hop (`nil`: `queue.async`).
    let direct: DirectDispatch?
    /// Counts work in flight on a wrapped foreign queue, to catch a queue that is not serial after all.
    private let inFlight = AtomicCell()
    /// The settled record this scheduler's fixed-owner objects share in a release build without the
    /// debug tier (see ``Confinement``); empty until the first one.
    package let sharedFixedRecord = OnceSlot()

    /// Creates a tree: a new serial queue with its own label and QoS.
    ///
    /// - Parameters:
    ///   - label: A reverse-DNS label, e.g. `com.app.network`, named in every report. An empty or
    ///     whitespace-only label stops a debug build here, with this call site in the message; a
    ///     release build warns and labels the scheduler `unlabelled (File.swift:line)`.
    ///   - qos: The queue's quality of service.
    ///   - file: The call site, named if the label is refused.
    ///   - line: The call site, named if the label is refused.
    public convenience init(label: String, qos: DispatchQoS = .default, file: StaticString = #fileID, line: UInt = #line) {
        let label = ExecutionContext.meaningfulLabel(label, in: "SerialQueueScheduler(label:qos:)", file: file, line: line)
        let queue = DispatchQueue(label: label, qos: qos)
        let context = ExecutionContext(label: label, parent: nil, kind: .queue, id: UInt(csched_next_id()), queue: queue)
        self.init(queue: queue, qos: qos, parent: nil, context: context, watchesExclusion: false)
    }

    private convenience init(branchOf parent: SerialQueueScheduler, name: String, qos: DispatchQoS) {
        let label = parent.label + "." + name
        let queue = DispatchQueue(label: label, qos: qos, target: parent.queue)
        let context = ExecutionContext(
            label: label, parent: parent.executionContext, kind: .queue, id: UInt(csched_next_id()), queue: queue
        )
        self.init(queue: queue, qos: qos, parent: parent, context: context, watchesExclusion: false)
    }

    private init(
        queue: DispatchQueue, qos: DispatchQoS, parent: SerialQueueScheduler?, context: ExecutionContext,
        watchesExclusion: Bool
    ) {
        self.queue = queue
        self.qos = qos
        self.parent = parent
        self.executionContext = context
        self.deadlines = DispatchDeadlines(queue: queue)
        self.watchesExclusion = watchesExclusion
        self.direct = DirectDispatch(queue)
        // Tags the queue so work submitted to it directly is recognised (idempotent for a queue that
        // is wrapped twice: the value is the same context).
        queue.setSpecific(key: executionContextQueueKey, value: context)
        SchedulerRegistry.register(self)
    }

    deinit {
        SchedulerRegistry.forget(executionContext.id)
    }

    /// Wraps a serial queue created elsewhere.
    ///
    /// An owner must be serial: confinement means one piece of work at a time. The library refuses the
    /// queues it can recognise as not serial — the global queues, the main queue (use
    /// ``MainThreadScheduler/shared``) and, where it reads libdispatch's queue state (Linux, see the
    /// Threading Model article), any queue made with `attributes: .concurrent`, even one that targets a
    /// serial queue. A serial queue that targets a concurrent one is serial and accepted. Where the
    /// state cannot be read (Darwin, or `SCHEDULABLE_DISABLE_DISPATCH_READER` set) a concurrent queue is
    /// accepted, and the caller's promise that it is serial is watched instead: the first time two
    /// pieces of the library's work on it overlap, a ``ConfinementViolation/Kind/concurrentQueue``
    /// violation is reported (work submitted to the queue directly is not watched).
    ///
    /// Wrapping the same queue twice gives two schedulers with one identity: objects owned by either
    /// pass on both.
    ///
    /// A queue that targets a library queue (a tree, a branch, or the main queue) keeps that relation:
    /// the scheduler is a branch of it, so the wrapped queue's work passes the checks of objects the
    /// target owns, and a `sync` onto it from the target's work is reported as the deadlock it is. The
    /// target is read from libdispatch where its layout is confirmed (Linux; see the Threading Model
    /// article); elsewhere the wrapped queue is a tree of its own. Set the target before wrapping.
    ///
    /// - Parameters:
    ///   - queue: A serial queue.
    ///   - qos: The QoS to report for branches that don't specify their own.
    ///   - file: The call site, named by the error.
    ///   - line: The call site, named by the error.
    /// - Throws: ``ScheduleConfigurationError`` for the main queue, a global queue, or (where it can be
    ///   told) a concurrent queue; the error names the queue and the call site.
    public convenience init(
        wrapping queue: DispatchQueue, qos: DispatchQoS = .default, file: StaticString = #fileID, line: UInt = #line
    ) throws(ScheduleConfigurationError) {
        // One context per queue, however many wrappers and raw-queue owners name it (the queue keeps
        // it as its queue-specific value). A queue that targets a library queue is a branch of it: its
        // work holds that queue's context (and, up the chain, the tree's), exactly as before it was wrapped.
        let context = try ExecutionContext.owning(queue, callSite: CodeLocation(file: file, line: line), wrapping: true)
        let parent = context.parent.flatMap(SchedulerRegistry.scheduler(for:)) as? SerialQueueScheduler
        self.init(queue: queue, qos: qos, parent: parent, context: context, watchesExclusion: true)
    }

    /// Creates a branch: a serial queue that targets this one, labelled `"\(label).\(name)"`.
    ///
    /// - Parameters:
    ///   - name: The branch's own name, appended to this scheduler's label with a dot. An empty or
    ///     whitespace-only name stops a debug build here, with this call site in the message; a
    ///     release build warns and names the branch `unlabelled (File.swift:line)`.
    ///   - qos: The branch's QoS; `nil` inherits this scheduler's.
    ///   - file: The call site, named if the name is refused.
    ///   - line: The call site, named if the name is refused.
    /// - Returns: The new branch.
    public func branch(_ name: String, qos: DispatchQoS? = nil, file: StaticString = #fileID, line: UInt = #line) -> SerialQueueScheduler {
        let name = ExecutionContext.meaningfulLabel(name, in: "SerialQueueScheduler.branch(_:qos:)", file: file, line: line)
        return SerialQueueScheduler(branchOf: self, name: name, qos: qos ?? self.qos)
    }

    /// Submits `work` to the queue.
    ///
    /// A queue scheduler never rejects work.
    ///
    /// - Parameter work: The work to run.
    public func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        trySchedule(work, recording: .unrecorded)
    }

    /// ``trySchedule(_:)`` with the work's scheduling site, published while it runs.
    package func trySchedule(_ work: @escaping @Sendable () -> Void, recording site: WorkSite) {
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        let context = executionContext
        let work = AutomaticTestReporting.carryingCurrentTest(work)
        if watchesExclusion {
            queue.async { self.runWatchingExclusion(site: site, work) }
        } else if let direct {
            direct.async(in: context, site: site, work)
        } else {
            queue.async { context.run(site: site, work) }
        }
    }

    /// Runs `body` on this scheduler and returns its result: inline when already on it (no deadlock),
    /// otherwise through `queue.sync` while the caller blocks.
    ///
    /// Inside `body`, the caller's own contexts still pass their checks: the caller is blocked, so exclusion
    /// holds.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports made while `body` runs.
    ///   - line: The call site, for reports made while `body` runs.
    ///   - function: The calling function, for reports made while `body` runs.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    public func sync<T>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, _ body: () throws -> T
    ) rethrows -> T {
        let site = WorkSite(location: PackedCodeLocation(file: file, line: line), function: function)
        return try queue.sync(as: executionContext, site: site, body)
    }

    private func runWatchingExclusion(site: WorkSite, _ work: () -> Void) {
        let running = inFlight.add(1)
        defer { inFlight.subtract(1) }
        if running > 1 {
            ConfinementReporting.report(
                ConfinementViolation(
                    kind: .concurrentQueue,
                    tier: .precondition,
                    member: "schedule(_:)",
                    expectedOwner: executionContext.description,
                    actualContext: CurrentExecution.description,
                    detail: "two blocks of the wrapped queue \"\(queue.label)\" ran at the same time: it is "
                        + "not serial, so it cannot own objects; wrap a serial queue instead"
                ).capturingAccessSite(),
                objectHandler: nil
            )
        }
        executionContext.run(site: site, work)
    }
}

extension SerialQueueScheduler {
    /// Runs `work`, already on ``queue``, the way ``trySchedule(_:)`` runs what it is given: delayed
    /// work and timers fire on the queue itself and must be watched like any other work.
    func runAsQueuedWork(site: WorkSite, _ work: () -> Void) {
        if watchesExclusion {
            runWatchingExclusion(site: site, work)
        } else {
            executionContext.run(site: site, work)
        }
    }
}
