import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// The object every cell uses: a guard and a query, nothing else. No mutable state, so accesses the
/// table expects to be reported are still free of data races (ThreadSanitizer runs the matrix too), and
/// the class is `Sendable` without `@unchecked`.
final class MatrixSubject: ConfinedObject, Sendable {
    let confinement: Confinement
    /// Where `deinit` records its access (with the thread it ran on), for the deinit cells.
    private let deinitSink: LockedList<MatrixDeinitAccess>?

    init(_ confinement: Confinement, deinitSink: LockedList<MatrixDeinitAccess>? = nil) {
        self.confinement = confinement
        self.deinitSink = deinitSink
    }

    /// The initializer cell: the object is used while it is built.
    init(_ confinement: Confinement, usedInInitializerInto sink: LockedList<Bool>) {
        self.confinement = confinement
        self.deinitSink = nil
        sink.append(access())
    }

    /// The access under test: the query first (it binds nothing and never says a false yes), then the
    /// debug-tier guard. Returns the query's answer; the guard's reports go to the captured handler.
    func access() -> Bool {
        let isolated = isIsolated
        assertIsolated()
        return isolated
    }

    deinit {
        deinitSink?.append(MatrixDeinitAccess(isolated: access(), thread: csched_os_thread_id()))
    }
}

/// What `deinit` saw.
struct MatrixDeinitAccess: Sendable {
    var isolated: Bool
    var thread: UInt64
}

/// The query of one concurrentPerform iteration, and whether it ran on the thread that called
/// concurrentPerform.
struct MatrixIteration: Sendable {
    var onCaller: Bool
    var isolated: Bool
}

/// A plain `Thread` that runs the closures it is given, in order — the "detached object bound on a
/// plain thread" owner. The library knows it only as a thread: it pushes no frame and sets no context.
final class PlainThreadLoop: Sendable {
    private let jobs = LockedValue<[(@Sendable () -> Void)?]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(name: String) {
        let jobs = self.jobs, ready = self.ready, ended = self.ended
        let thread = Thread {
            csched_set_thread_name(name)
            while true {
                ready.wait()
                // A job's closure is released before the next is taken: whatever it captured is gone
                // by the time a later job runs.
                guard let job = jobs.withLock({ $0.removeFirst() }) else { break }
                job()
            }
            ended.signal()
        }
        thread.start()
    }

    /// Runs `body` on the thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(returning: body()) } }
            ready.signal()
        }
    }

    /// Ends the thread after the jobs already given.
    func stop() {
        jobs.withLock { $0.append(nil) }
        ready.signal()
        ended.wait()
    }
}

/// An actor whose executor is a library queue scheduler: its methods are the owner's work.
actor MatrixActor {
    let executor: SerialQueueScheduler

    init(executor: SerialQueueScheduler) {
        self.executor = executor
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func run<T: Sendable>(_ body: @Sendable () -> T) -> T {
        body()
    }
}

/// Runs `body` on a new plain thread and returns its result (without blocking the caller's thread).
func onNewPlainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            csched_set_thread_name("matrix-plain")
            continuation.resume(returning: body())
        }
        thread.start()
    }
}

/// Runs `body` as `scheduler`'s work and returns its result.
func onScheduler<T: Sendable>(_ scheduler: some SerialScheduler, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        scheduler.schedule { continuation.resume(returning: body()) }
    }
}

/// Runs `body` as raw asynchronous work on `queue` and returns its result.
func onRawQueue<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: body()) }
    }
}

/// One owner of a kind, with everything the contexts of a cell need around it: created once per cell,
/// finished at its end.
final class MatrixOwnerFixture: Sendable {
    let kind: MatrixOwner
    /// The owner, unless the kind is a detached object (then ``plainThread`` owns it).
    let scheduler: (any SerialScheduler)?
    /// The owner's `DispatchQueue`, for raw work.
    let queue: DispatchQueue?
    /// A branch below the owner, its parent and a sibling (where they exist).
    let branchBelow: SerialQueueScheduler?
    let parent: SerialQueueScheduler?
    let sibling: SerialQueueScheduler?
    let actor: MatrixActor?
    let plainThread: PlainThreadLoop?
    /// An unrelated queue scheduler, and the thread scheduler whose `sync` a blocked caller waits in.
    let other: SerialQueueScheduler
    let lender: ThreadScheduler

    init(_ kind: MatrixOwner, label: String) throws {
        self.kind = kind
        other = SerialQueueScheduler(label: label + ".other")
        lender = ThreadScheduler(label: label + ".lender")
        var actor: MatrixActor?
        var plainThread: PlainThreadLoop?
        var parent: SerialQueueScheduler?
        var sibling: SerialQueueScheduler?
        switch kind {
        case .main, .mainByDefault:
            scheduler = MainThreadScheduler.shared
            queue = .main
        case .tree:
            let tree = SerialQueueScheduler(label: label)
            scheduler = tree
            queue = tree.queue
        case .branch:
            let tree = SerialQueueScheduler(label: label)
            let branch = tree.branch("owner")
            scheduler = branch
            queue = branch.queue
            parent = tree
            sibling = tree.branch("sibling")
        case .subBranch:
            let middle = SerialQueueScheduler(label: label).branch("middle")
            let sub = middle.branch("owner")
            scheduler = sub
            queue = sub.queue
            parent = middle
            sibling = middle.branch("sibling")
        case .wrappedQueue:
            let raw = DispatchQueue(label: label)
            scheduler = try SerialQueueScheduler(wrapping: raw)
            queue = raw
        case .threadScheduler:
            scheduler = ThreadScheduler(label: label)
            queue = nil
        case .actorExecutor:
            let executor = SerialQueueScheduler(label: label)
            actor = MatrixActor(executor: executor)
            scheduler = executor
            queue = executor.queue
        case .detachedOnPlainThread:
            plainThread = PlainThreadLoop(name: "matrix-owner")
            scheduler = nil
            queue = nil
        }
        branchBelow = (scheduler as? SerialQueueScheduler)?.branch("below")
        self.parent = parent
        self.sibling = sibling
        self.actor = actor
        self.plainThread = plainThread
    }

    /// A new record for this owner (for a detached owner: a detached one, which the first use binds;
    /// for the main thread by default: `Confinement()`, which names no owner).
    func makeConfinement() -> Confinement {
        if kind == .mainByDefault { return Confinement() }
        if let scheduler { return Confinement(owner: scheduler) }
        return .detached()
    }

    /// A new object with `recorder` as its handler, its construction over: bound to the plain thread
    /// by a first use there (always-on tier, so it binds in every build), else `endConstruction()`.
    func makeSettledSubject(
        recorder: ViolationRecorder, deinitSink: LockedList<MatrixDeinitAccess>? = nil
    ) async -> MatrixSubject {
        let subject = withConfinementViolationHandler(recorder) {
            MatrixSubject(makeConfinement(), deinitSink: deinitSink)
        }
        if let plainThread {
            await plainThread.run { subject.preconditionIsolated() }
            // A second job: the loop has released the first one's closure (and its reference) by then.
            await plainThread.run {}
        } else {
            subject.confinement.endConstruction()
        }
        return subject
    }

    /// Runs `body` as the owner's work: library work on its scheduler, a method of the actor, or a job
    /// of the plain thread.
    func onOwner<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if let actor { return await actor.run(body) }
        if let plainThread { return await plainThread.run(body) }
        return await onScheduler(scheduler!, body)
    }

    func finish() {
        (scheduler as? ThreadScheduler)?.shutdown()
        lender.shutdown()
        plainThread?.stop()
    }
}
