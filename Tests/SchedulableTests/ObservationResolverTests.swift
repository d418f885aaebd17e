import Dispatch
import Foundation
import Testing

@testable import Schedulable

/// An observed service, a type per scenario (`Tag`): the store's entries are per type.
private final class Observed<Tag>: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    func touch() { preconditionIsolated() }
}

/// A service whose owner is declared: the storage queue, named directly.
private final class Declared: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    init(owner: DispatchQueue) { confinement = Confinement(owner: owner) }
}

private enum SyncThenPlain {}
private enum Interleaved {}
private enum HandOffBetweenQueues {}
private enum PlantedBug {}

/// Where the scenario's uses are made from: the main thread, a plain background thread, a Swift task.
private enum Caller: String, CaseIterable, CustomTestStringConvertible {
    case main, thread, task

    var testDescription: String { rawValue }

    /// Runs `body` from this caller and waits for it (a task is awaited: blocking a thread of Swift's
    /// small cooperative pool for it could starve the pool).
    func run(_ body: @escaping @Sendable () -> Void) async {
        switch self {
        case .main:
            DispatchQueue.main.sync(execute: body)
        case .thread:
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                body()
                done.signal()
            }
            thread.start()
            done.wait()
        case .task:
            await Task.detached { body() }.value
        }
    }

    /// How the caller's own plain use is recorded (a thread's and a task's label carry their ids).
    var plainUse: String {
        switch self {
        case .main: "main:main thread"
        case .thread: "thread"
        case .task: "task"
        }
    }
}

/// How the queues of a scenario are made: raw and never named, or named as an owner somewhere
/// (`Confinement(owner: queue)`, which gives the queue its identity).
private enum QueueKind: String, CaseIterable, CustomTestStringConvertible {
    case raw, named

    var testDescription: String { rawValue }

    func make(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        if self == .named { _ = Confinement(owner: queue) }
        return queue
    }
}

/// Observation's rule, TM "Where am I": a use is in the innermost serial context the thread holds — inside
/// `queue.sync {}` called from the main thread, the queue — and a later use that does not hold that
/// context is a step, even on the same thread. Each scenario runs 200 times from each caller, with raw
/// and with named queues, and records the same steps every time.
@Suite("Observation: a use is in the innermost serial context", .serialized)
struct ObservationResolverTests {
    static let repetitions = 200

    init() {
        ConfinementObservations.writesFileAtExit = false
    }

    /// The steps the store recorded for the one instance of `Tag`'s type that `scenario` used, as
    /// `kind:label` (a thread's and a task's as their kind alone); the type's entry is cleared first.
    private func steps<Tag>(of _: Tag.Type, _ scenario: (Observed<Tag>) async -> Void) async -> [String] {
        // The store's key for an observed type: its qualified name.
        let key = String(reflecting: Observed<Tag>.self)
        Observation.Store.shared.state.withLock { $0.types[key] = nil }
        let service = Observed<Tag>()
        await scenario(service)
        let entry = Observation.Store.shared.state.withLock { $0.types[key] }
        return entry?.instances.values.first?.steps.map { use in
            use.context.kind == .thread || use.context.kind == .task
                ? use.context.kind.rawValue : "\(use.context.kind.rawValue):\(use.context.label)"
        } ?? []
    }

    /// Runs `scenario` 200 times and counts each distinct answer.
    private func answers(_ scenario: () async -> [String]) async -> [[String]: Int] {
        var answers: [[String]: Int] = [:]
        for _ in 0..<Self.repetitions { answers[await scenario(), default: 0] += 1 }
        return answers
    }

    /// `q.sync` from the caller, then a plain use on the same thread, then `q.sync` again: three steps.
    @Test(arguments: Caller.allCases, QueueKind.allCases)
    fileprivate func aSyncThenAPlainUseOnTheSameThreadIsTwoContexts(caller: Caller, kind: QueueKind) async {
        let queue = kind.make("observe.innermost.storage.\(kind)")
        let seen = await answers {
            await steps(of: SyncThenPlain.self) { service in
                await caller.run {
                    queue.sync { service.touch() }
                    service.touch()
                    queue.sync { service.touch() }
                }
            }
        }
        let storage = "queue:observe.innermost.storage.\(kind)"
        #expect(seen == [[storage, caller.plainUse, storage]: Self.repetitions])
    }

    /// Two queues' `sync` interleaved from the caller: A, B, A — sharing, not a hand-off.
    @Test(arguments: Caller.allCases, QueueKind.allCases)
    fileprivate func twoQueuesInterleavedAreThreeSteps(caller: Caller, kind: QueueKind) async {
        let first = kind.make("observe.innermost.a.\(kind)")
        let second = kind.make("observe.innermost.b.\(kind)")
        let seen = await answers {
            await steps(of: Interleaved.self) { service in
                await caller.run {
                    first.sync { service.touch() }
                    second.sync { service.touch() }
                    first.sync { service.touch() }
                }
            }
        }
        let a = "queue:observe.innermost.a.\(kind)", b = "queue:observe.innermost.b.\(kind)"
        #expect(seen == [[a, b, a]: Self.repetitions])
    }

    /// Filled on one queue, then used only on another: A, then B.
    @Test(arguments: Caller.allCases, QueueKind.allCases)
    fileprivate func aHandOffBetweenTwoQueuesIsTwoSteps(caller: Caller, kind: QueueKind) async {
        let first = kind.make("observe.innermost.from.\(kind)")
        let second = kind.make("observe.innermost.to.\(kind)")
        let seen = await answers {
            await steps(of: HandOffBetweenQueues.self) { service in
                await caller.run {
                    first.sync { service.touch(); service.touch() }
                    second.sync { service.touch(); service.touch() }
                }
            }
        }
        #expect(seen == [["queue:observe.innermost.from.\(kind)", "queue:observe.innermost.to.\(kind)"]: Self.repetitions])
    }

    /// The planted bug: the storage queue's state read inside `networkQueue.sync`, nested in
    /// the storage queue's own `sync` (the innermost context is the network queue) or not. Observation records the network queue as a step; with
    /// the owner declared, the same read is reported (the verdict for declared owners is unchanged:
    /// the storage queue passes inside its own `sync`, the main thread's `sync` included).
    @Test(arguments: Caller.allCases)
    fileprivate func aReadInsideAnotherQueuesSyncIsAStepAndNotHeld(caller: Caller) async {
        let storageQueue = DispatchQueue(label: "observe.innermost.bug.storage")
        let networkQueue = DispatchQueue(label: "observe.innermost.bug.network")
        let declared = storageQueue.sync { Declared(owner: storageQueue) }
        let seen = await answers {
            await steps(of: PlantedBug.self) { service in
                await caller.run {
                    storageQueue.sync { service.touch() }
                    storageQueue.sync { networkQueue.sync { service.touch() } }
                    storageQueue.sync { service.touch() }
                    networkQueue.sync { service.touch() }
                }
            }
        }
        let storage = "queue:observe.innermost.bug.storage", network = "queue:observe.innermost.bug.network"
        #expect(seen == [[storage, network, storage, network]: Self.repetitions])
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let held = ResultSlot<[Bool]>()
            await caller.run {
                held.value = [
                    storageQueue.sync { declared.confinement.isIsolated },
                    networkQueue.sync { declared.confinement.isIsolated },
                    storageQueue.sync { networkQueue.sync { declared.confinement.isIsolated } },
                    declared.confinement.isIsolated,
                ]
            }
            answers["\(held.value ?? [])", default: 0] += 1
        }
        #expect(answers == ["[true, false, true, false]": Self.repetitions])
    }
}
