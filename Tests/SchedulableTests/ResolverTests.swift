import CSchedulableContext
import Dispatch
import Schedulable
import Testing

/// `CurrentExecution.holds(contextID:)` is the one definition of "holds", the resolver's cascade
/// written out for speed (it is the legitimate slow path of every check). Here the same meaning is
/// stated per layer (`gives(contextID:)`, the specification) and walked with the general cascade: the
/// two must answer alike.
@Suite("Resolver: the check's walk equals the general one")
struct ResolverTests {
    /// Compares the two answers for every id of interest, in the calling context.
    private static func compare(_ ids: [UInt], _ label: String) {
        for id in ids {
            let general = CurrentExecution.first(where: { $0.gives(contextID: id) }) != nil
            #expect(CurrentExecution.holds(contextID: id) == general, "\(label): context \(id)")
        }
    }

    @Test func everyLayerAgrees() {
        let owner = SerialQueueScheduler(label: "test.resolver.owner")
        let branch = owner.branch("leaf")
        let other = SerialQueueScheduler(label: "test.resolver.other")
        let thread = ThreadScheduler(label: "test.resolver.thread")
        defer { thread.shutdown() }
        let ids = [
            owner.executionContext.id, branch.executionContext.id, other.executionContext.id,
            thread.executionContext.id, UInt(CSCHED_MAIN_CONTEXT_ID), UInt(csched_thread_unique_id()),
        ]
        for _ in 0..<200 {
            Self.compare(ids, "plain test thread")
            owner.sync { Self.compare(ids, "owner frame") }
            branch.sync { Self.compare(ids, "branch frame") }
            owner.queue.sync { Self.compare(ids, "raw work on the owner's queue") }
            branch.queue.sync { Self.compare(ids, "raw work on the branch's queue") }
            owner.sync { other.sync { Self.compare(ids, "nested sync") } }
            thread.sync { Self.compare(ids, "thread scheduler, a blocked caller's lent chain") }
            owner.sync { thread.sync { Self.compare(ids, "lent chain through a thread scheduler") } }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.main.async {
                Self.compare(ids, "main queue")
                done.signal()
            }
            done.wait()
        }
    }
}

extension ExecutionLayer {
    /// Whether this layer gives the calling code the context whose id is `id` (or one of its
    /// branches): the layer's context and its parents; a lent chain (a blocked caller's) never main.
    fileprivate func gives(contextID id: UInt) -> Bool {
        switch self {
        case .frame(let layer, let lent):
            if lent && id == UInt(CSCHED_MAIN_CONTEXT_ID) { return false }
            return layer.isWithin(contextID: id)
        case .queue(let layer): return layer.isWithin(contextID: id)
        case .mainThread: return id == UInt(CSCHED_MAIN_CONTEXT_ID)
        case .thread(let threadID): return threadID == id
        case .rawQueue: return false
        }
    }
}
