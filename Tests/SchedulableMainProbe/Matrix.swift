// The matrix's cells that need the real main thread (MatrixTests runs the rest in the test process,
// whose main thread is parked in dispatchMain()): every owner kind accessed from top-level code, and
// the main owner's nested contexts started from top-level code (for both spellings of that owner:
// `Confinement(owner: MainThreadScheduler.shared)` and `Confinement()`). One line per repetition on standard
// error, judged by MatrixTests against its table:
//
//     matrix <owner> <context> <queries that said yes> <accesses judged> <reports> <refused on caller>

import CSchedulableContext
import Dispatch
import Foundation
import Schedulable

/// Counts the reports of the objects created under it (also used by MainDrain.swift).
final class ProbeRecorder: ConfinementViolationHandler {
    private let reports = LockedValue(0)
    func handle(_ violation: ConfinementViolation) { reports.withLock { $0 += 1 } }
    var count: Int { reports.withLock { $0 } }
}

/// A guard and a query, as in MatrixTests (also used by MainDrain.swift).
final class ProbeSubject: ConfinedObject, Sendable {
    let confinement: Confinement
    init(_ confinement: Confinement) { self.confinement = confinement }

    func access() -> Bool {
        let isolated = isIsolated
        assertIsolated()
        return isolated
    }
}

/// The owner kind "actor on a library executor": the actor's executor owns the objects.
private actor ProbeActor {
    let executor: SerialQueueScheduler
    init(executor: SerialQueueScheduler) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

private func line(_ owner: String, _ context: String, yes: Int, of count: Int, reports: Int, refusedOnCaller: Int = 0) {
    StandardError.write("matrix \(owner) \(context) \(yes) \(count) \(reports) \(refusedOnCaller)\n")
}

/// How a probe object's record names its owner.
private enum ProbeOwner {
    /// `Confinement(owner:)`.
    case scheduler(any SerialScheduler)
    /// `Confinement()`: the main thread, by default.
    case mainByDefault
    /// `.detached()`, bound by a first use on a plain thread.
    case detachedOnPlainThread

    func makeConfinement() -> Confinement {
        switch self {
        case .scheduler(let scheduler): return Confinement(owner: scheduler)
        case .mainByDefault: return Confinement()
        case .detachedOnPlainThread: return .detached()
        }
    }
}

/// A settled object for `owner`.
private func settledSubject(_ owner: ProbeOwner, _ recorder: ProbeRecorder) -> ProbeSubject {
    let subject = withConfinementViolationHandler(recorder) { ProbeSubject(owner.makeConfinement()) }
    if case .detachedOnPlainThread = owner {
        let bound = DispatchSemaphore(value: 0)
        let thread = Thread {
            subject.preconditionIsolated()   // always-on tier: binds in every build
            bound.signal()
        }
        thread.start()
        bound.wait()
    } else {
        subject.confinement.endConstruction()
    }
    return subject
}

/// Runs the cells; call it from top-level code.
func runMatrixCells(repetitions: Int) {
    let tree = SerialQueueScheduler(label: "probe.matrix.tree")
    let branch = SerialQueueScheduler(label: "probe.matrix.forest").branch("owner")
    let subBranch = SerialQueueScheduler(label: "probe.matrix.forest2").branch("middle").branch("owner")
    let wrapped = try! SerialQueueScheduler(wrapping: DispatchQueue(label: "probe.matrix.wrapped"))
    let threadScheduler = ThreadScheduler(label: "probe.matrix.thread")
    let executor = SerialQueueScheduler(label: "probe.matrix.executor")
    let actor = ProbeActor(executor: executor)
    let owners: [(String, ProbeOwner)] = [
        ("main", .scheduler(MainThreadScheduler.shared)), ("mainByDefault", .mainByDefault), ("tree", .scheduler(tree)),
        ("branch", .scheduler(branch)), ("subBranch", .scheduler(subBranch)), ("wrappedQueue", .scheduler(wrapped)),
        ("threadScheduler", .scheduler(threadScheduler)), ("actorExecutor", .scheduler(actor.executor)),
        ("detachedOnPlainThread", .detachedOnPlainThread),
    ]
    for (name, owner) in owners {
        for _ in 0..<repetitions {
            let recorder = ProbeRecorder()
            let subject = settledSubject(owner, recorder)
            let query = subject.access()   // top-level code's own call: on the main thread
            line(name, "mainTopLevel", yes: query ? 1 : 0, of: 1, reports: recorder.count)
        }
    }

    // The main owner's contexts, entered from top-level code rather than from main-queue work, for
    // both spellings of that owner.
    let other = SerialQueueScheduler(label: "probe.matrix.other")
    let lender = ThreadScheduler(label: "probe.matrix.lender")
    let nested: [(String, @Sendable (@escaping @Sendable () -> Bool) -> Bool)] = [
        ("nestedLibrarySync@topLevel", { access in other.sync(access) }),
        ("nestedRawSync@topLevel", { access in DispatchQueue(label: "probe.matrix.raw").sync(execute: access) }),
        ("lentChain@topLevel", { access in lender.sync(access) }),
    ]
    let mainOwners: [(String, ProbeOwner)] = [("main", .scheduler(MainThreadScheduler.shared)), ("mainByDefault", .mainByDefault)]
    for (name, owner) in mainOwners {
        for (context, run) in nested {
            for _ in 0..<repetitions {
                let recorder = ProbeRecorder()
                let subject = settledSubject(owner, recorder)
                let query = run { subject.access() }
                line(name, context, yes: query ? 1 : 0, of: 1, reports: recorder.count)
            }
        }
        // concurrentPerform from the main thread: iterations on it must pass; the others are the cell.
        for _ in 0..<repetitions {
            let recorder = ProbeRecorder()
            let subject = settledSubject(owner, recorder)
            let seen = LockedValue<[(onCaller: Bool, isolated: Bool)]>([])
            let caller = csched_os_thread_id()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let isolated = subject.access()
                seen.withLock { $0.append((csched_os_thread_id() == caller, isolated)) }
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .microseconds(300))
            }
            let iterations = seen.withLock { $0 }
            let off = iterations.filter { !$0.onCaller }
            line(
                name, "concurrentPerform@topLevel", yes: off.filter(\.isolated).count, of: off.count,
                reports: recorder.count, refusedOnCaller: iterations.filter { $0.onCaller && !$0.isolated }.count
            )
        }
    }
    threadScheduler.shutdown()
    lender.shutdown()
}
