import Dispatch
import Foundation
#if NIOComparison
import NIOCore
import NIOPosix
#endif
import Schedulable

/// One way of checking (or not checking) confinement before reading a value.
///
/// Every kernel has the same loop shape, `for _ in 0..<n { check; consume(read) }`, and runs inside the
/// context its check expects, so the only difference between two kernels is the check. The raw value is
/// the row label in the comparison table.
public enum CheckKernel: String, CaseIterable, Sendable {
    case plain = "plain stored property (no check)"
    case confined = "@Confined property"
    case uncheckedAccessor = "the same accessor shape, no check"
    // Writes: `object.value = i` and `object.value &+= 1`, each in a function of its own called once per
    // iteration (like a method that sets a property). The checked setter and `_modify` must compile to
    // the plain store plus the fast path, with no key path (scripts/check-no-keypaths.sh).
    case plainWrite = "plain stored property, write"
    case plainModify = "plain stored property, in-place add"
    case confinedWrite = "@Confined property, write"
    case confinedModify = "@Confined property, in-place add"
    case schedulerBound = "SchedulerBound.value (always on)"
    case schedulerBoundInVar = "SchedulerBound.value, box in a class var"
    case assertIsolated = "assertIsolated() + read"
    case preconditionIsolated = "preconditionIsolated() + read"
    case isIsolated = "isIsolated query + read"
    case dispatchPrecondition = "dispatchPrecondition(.onQueue)"
    case getSpecific = "DispatchQueue.getSpecific"
    case isMainThread = "Foundation Thread.isMainThread"
#if NIOComparison
    case nioLoopBound = "NIOLoopBound.value on its loop"
#endif
    case actorPreconditionIsolated = "actor preconditionIsolated()"
    case actorAssumeIsolated = "actor assumeIsolated { }"
    case mutex = "Mutex.withLock"
    // Legitimate accesses that miss the fast path (the thread's token is not the owner's id).
    case confinedRawQueue = "@Confined, raw work on the owner's queue"
    case preconditionIsolatedRawQueue = "preconditionIsolated(), raw work on the owner's queue"
    case schedulerBoundRawQueue = "SchedulerBound.value, raw work on the owner's queue"
    case confinedOnBranch = "@Confined, tree-owned, used on a branch"
    // Main-owned, read in a raw `DispatchQueue.main.async` block drained by a worker thread while the
    // main thread is parked in `dispatchMain()` (KernelRunner parks it for this kernel; `needsDispatchMain`).
    case confinedMainQueue = "@Confined, main-owned, raw main-queue block under dispatchMain()"
    // A slow path that records ownership history (debug tier): one detach() and one handOff(to:) back
    // to the owner, per iteration — two ownership events, each under the record's stripe.
    case handOffRoundTrip = "Confinement detach() + handOff(to:) back, on the owner"
    // Creating objects: one object per iteration, made off its owner (the usual case).
    case createPlain = "create a plain object (two Int properties)"
    case createConfined = "create the same object protected (Confinement + two @Confined)"
    case createSchedulerBound = "create the same object with two SchedulerBound<Int>"
    case createSchedulableObject = "wrap a plain object in SchedulableObject"
    case createConfinedInTask = "create the protected object in a task on the cooperative pool"
    // Made in its owner's work (services built on their own queue, view models on main): no window
    // opens, so a release build without the debug tier refers to the owner's shared settled record.
    case createConfinedOnOwner = "create the protected object in its owner's work"
    case createTransferable = "create the object protected by Confinement.transferable (own record)"

    /// The name used for the benchmark: the case name, short and stable, because baselines and the
    /// committed thresholds (the kernel column of `Thresholds/*.tsv`, as `KernelRunner list` prints it)
    /// are keyed by it.
    public var benchmarkName: String { "\(self)" }

    /// Whether the kernel needs the main thread parked in `dispatchMain()` (main-queue work drained by a
    /// worker thread); a runner that blocks its main thread instead must call `dispatchMain()` for it.
    public var needsDispatchMain: Bool { self == .confinedMainQueue }

    /// The function that holds this kernel's loop, for `valgrind --toggle-collect='*<name>*'`; each
    /// name matches exactly one (mangled) function.
    public var loopFunctionName: String {
        switch self {
        case .plain: "plainRead"
        case .confined: "confinedRead"
        case .uncheckedAccessor: "uncheckedAccessorRead"
        case .plainWrite: "plainWrite"
        case .plainModify: "plainModify"
        case .confinedWrite: "confinedWrite"
        case .confinedModify: "confinedModify"
        case .schedulerBound: "schedulerBoundRead"
        case .schedulerBoundInVar: "schedulerBoundInVarRead"
        case .assertIsolated: "assertIsolatedRead"
        case .preconditionIsolated: "preconditionIsolatedRead"
        case .isIsolated: "isIsolatedRead"
        case .dispatchPrecondition: "dispatchPreconditionRead"
        case .getSpecific: "getSpecificRead"
        case .isMainThread: "isMainThreadRead"
#if NIOComparison
        case .nioLoopBound: "loopBoundRead"
#endif
        case .actorPreconditionIsolated: "actorPreconditionIsolatedRead"
        case .actorAssumeIsolated: "assumeIsolatedRead"
        case .mutex: "mutexRead"
        case .confinedRawQueue: "confinedRead"
        case .preconditionIsolatedRawQueue: "preconditionIsolatedRead"
        case .schedulerBoundRawQueue: "schedulerBoundRead"
        case .confinedOnBranch: "confinedRead"
        case .confinedMainQueue: "confinedRead"
        case .handOffRoundTrip: "handOffRoundTrips"
        case .createPlain: "createPlainObjects"
        case .createConfined: "createConfinedObjects"
        case .createSchedulerBound: "createBoundObjects"
        case .createSchedulableObject: "createSchedulableObjects"
        case .createConfinedInTask: "createConfinedObjectsInTask"
        case .createConfinedOnOwner: "createConfinedObjectsOnOwner"
        case .createTransferable: "createTransferableObjects"
        }
    }
}

/// Owns every context and model the check-cost kernels need and runs one kernel in its context.
///
/// Setup happens in `init` and `prepare(_:)`, outside any measurement. Entering the context (`queue.sync`,
/// `eventLoop.submit`, an actor call) is part of `run`, once per `iterations` accesses: with a million
/// iterations it is noise in wall clock, and the instruction-count script subtracts it exactly.
public final class CheckFixture {
    let queue: DispatchQueue
    let queueKey = DispatchSpecificKey<Int>()
    let plain = PlainModel()
    let mutex = MutexModel()
    let isolated = IsolatedModel()
    let owner: SerialQueueScheduler
    let protected: ProtectedModel
    let bound: BoundModel
    let branch: SerialQueueScheduler
    let treeOwned: ProtectedModel
    /// Owned by the main thread, read from main-queue work under `dispatchMain()`.
    let mainOwned: ProtectedModel
    let handedOff: ProtectedModel
    /// Where the creation kernels run: library work of another scheduler, off the objects' owner.
    let creator: SerialQueueScheduler
#if NIOComparison
    // Created only when a NIO kernel first runs, so the other kernels' processes never start an event
    // loop thread (which also keeps them runnable under valgrind, where NIO's loop does not start).
    private var loopBound: LoopBoundModel?
#endif

    /// Creates the queue and models.
    public init() {
        queue = DispatchQueue(label: "benchmark.check-owner")
        queue.setSpecific(key: queueKey, value: 42)
        owner = SerialQueueScheduler(label: "benchmark.owner")
        protected = ProtectedModel(owner: owner)
        bound = BoundModel(owner: owner)
        branch = owner.branch("benchmark.owner.branch")
        treeOwned = ProtectedModel(owner: owner)
        handedOff = ProtectedModel(transferableOwner: owner)
        mainOwned = ProtectedModel(owner: MainThreadScheduler.shared)
        mainOwned.confinement.endConstruction()
        creator = SerialQueueScheduler(label: "benchmark.creator")
        // Settle every binding first (the owner's first use ends a construction window), so the
        // slow-path rows measure a settled record, as an app's long-lived objects are.
        owner.sync {
            _ = protected.value
            _ = treeOwned.value
            protected.preconditionIsolated()
        }
    }

    /// Prepares whatever `kernel` needs that is created lazily; call it before measuring.
    public func prepare(_ kernel: CheckKernel) throws {
#if NIOComparison
        if kernel == .nioLoopBound, loopBound == nil {
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            // NIOLoopBound must be created on its loop.
            loopBound = try loop.submit { LoopBoundModel(on: loop) }.wait()
        }
#endif
    }

    /// Runs `kernel` for `iterations` accesses inside the context its check expects.
    public func run(_ kernel: CheckKernel, iterations: Int) async throws {
        switch kernel {
        case .plain:
            queue.sync { plainRead(plain, iterations) }
        case .confined:
            owner.sync { confinedRead(protected, iterations) }
        case .uncheckedAccessor:
            owner.sync { uncheckedAccessorRead(protected, iterations) }
        case .plainWrite:
            queue.sync { plainWrite(plain, iterations) }
        case .plainModify:
            queue.sync { plainModify(plain, iterations) }
        case .confinedWrite:
            owner.sync { confinedWrite(protected, iterations) }
        case .confinedModify:
            owner.sync { confinedModify(protected, iterations) }
        case .schedulerBound:
            owner.sync { schedulerBoundRead(bound, iterations) }
        case .schedulerBoundInVar:
            owner.sync { schedulerBoundInVarRead(bound, iterations) }
        case .assertIsolated:
            owner.sync { assertIsolatedRead(protected, iterations) }
        case .preconditionIsolated:
            owner.sync { preconditionIsolatedRead(protected, iterations) }
        case .isIsolated:
            owner.sync { isIsolatedRead(protected, iterations) }
        case .dispatchPrecondition:
            queue.sync { dispatchPreconditionRead(plain, queue, iterations) }
        case .getSpecific:
            queue.sync { getSpecificRead(plain, queueKey, iterations) }
        case .isMainThread:
            queue.sync { isMainThreadRead(plain, iterations) }
        case .mutex:
            queue.sync { mutexRead(mutex, iterations) }
#if NIOComparison
        case .nioLoopBound:
            try prepare(kernel)
            guard let model = loopBound else { preconditionFailure("prepare(_:) creates the model") }
            try await model.bound.eventLoop.submit { loopBoundRead(model, iterations) }.get()
#endif
        case .actorPreconditionIsolated:
            await isolated.runPreconditionIsolated(iterations: iterations)
        case .actorAssumeIsolated:
            await isolated.runAssumeIsolated(iterations: iterations)
        case .confinedRawQueue:
            owner.queue.sync { confinedRead(protected, iterations) }
        case .preconditionIsolatedRawQueue:
            owner.queue.sync { preconditionIsolatedRead(protected, iterations) }
        case .schedulerBoundRawQueue:
            owner.queue.sync { schedulerBoundRead(bound, iterations) }
        case .confinedOnBranch:
            branch.sync { confinedRead(treeOwned, iterations) }
        case .confinedMainQueue:
            // Only this block reads it while the kernel runs.
            nonisolated(unsafe) let model = mainOwned
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async {
                    // A worker thread, not the main thread: otherwise this would measure the fast path.
                    precondition(!Thread.isMainThread, "the main queue runs on the main thread: no dispatchMain()")
                    confinedRead(model, iterations)
                    done.resume()
                }
            }
        case .handOffRoundTrip:
            owner.sync { handOffRoundTrips(handedOff, owner, iterations) }
        case .createPlain:
            creator.sync { createPlainObjects(iterations) }
        case .createConfined:
            creator.sync { createConfinedObjects(owner, iterations) }
        case .createSchedulerBound:
            creator.sync { createBoundObjects(owner, iterations) }
        case .createSchedulableObject:
            creator.sync { createSchedulableObjects(owner, iterations) }
        case .createConfinedInTask:
            await Task.detached { [owner] in createConfinedObjectsInTask(owner, iterations) }.value
        case .createConfinedOnOwner:
            owner.sync { createConfinedObjectsOnOwner(owner, iterations) }
        case .createTransferable:
            creator.sync { createTransferableObjects(owner, iterations) }
        }
    }
}

// The kernels are `@inline(never)` so that each is one loop in one function, identical in shape, and
// visible by name in a profile.

@inline(never)
func plainRead(_ model: PlainModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.value)
    }
}

@inline(never)
func plainWrite(_ model: PlainModel, _ iterations: Int) {
    for i in 0..<iterations {
        storePlain(model, i)
        consume(i)
    }
}

@inline(never)
func storePlain(_ model: PlainModel, _ value: Int) {
    model.value = value
}

@inline(never)
func plainModify(_ model: PlainModel, _ iterations: Int) {
    for i in 0..<iterations {
        addPlain(model)
        consume(i)
    }
}

@inline(never)
func addPlain(_ model: PlainModel) {
    model.value &+= 1
}

/// Two ownership events per iteration, made on the owner: a detach, then a hand-off back (a detached
/// record may be handed off from anywhere). With the debug tier each records a history entry (the
/// first allocates the history); without it this is the bare rebinding.
@inline(never)
func handOffRoundTrips(_ model: ProtectedModel, _ owner: SerialQueueScheduler, _ iterations: Int) {
    for _ in 0..<iterations {
        model.detach()
        model.handOff(to: owner)
    }
    consume(model.unguardedValue)
}

@inline(never)
func dispatchPreconditionRead(_ model: PlainModel, _ queue: DispatchQueue, _ iterations: Int) {
    for _ in 0..<iterations {
        dispatchPrecondition(condition: .onQueue(queue))
        consume(model.value)
    }
}

@inline(never)
func getSpecificRead(_ model: PlainModel, _ key: DispatchSpecificKey<Int>, _ iterations: Int) {
    for _ in 0..<iterations {
        precondition(DispatchQueue.getSpecific(key: key) == 42, "not on the owning queue")
        consume(model.value)
    }
}

@inline(never)
func isMainThreadRead(_ model: PlainModel, _ iterations: Int) {
    for _ in 0..<iterations {
        // The benchmark does not run on the main thread, so the answer is used as data, not as a gate:
        // the cost of asking is what is measured.
        consume(Thread.isMainThread ? 0 : model.value)
    }
}

@inline(never)
func mutexRead(_ model: MutexModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.value.withLock { $0 })
    }
}

#if NIOComparison
@inline(never)
func loopBoundRead(_ model: LoopBoundModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.bound.value)
    }
}
#endif
