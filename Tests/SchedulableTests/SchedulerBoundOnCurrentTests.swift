import Dispatch
import Schedulable
import Testing

/// `SchedulerBound(_:onCurrent:)`: a value that is not sent may be boxed, on its owner only — checked
/// in every build.
@Suite("SchedulerBound(_:onCurrent:)")
struct SchedulerBoundOnCurrentTests {
    /// Part of a graph that lives on one scheduler: not `Sendable`, so it cannot be sent into a box.
    private final class Node {
        var visits = 0
        let neighbour: Node?
        init(neighbour: Node? = nil) { self.neighbour = neighbour }
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func aBoxMadeOnItsOwnerPassesThere(_ kind: LibrarySchedulerKind) async {
        let scheduler = kind.make("test.bound.current.\(kind)")
        defer { finish(scheduler) }
        for _ in 0..<100 {
            let (first, second) = await scheduler.run {
                let shared = Node()
                return (SchedulerBound(shared, onCurrent: scheduler), SchedulerBound(Node(neighbour: shared), onCurrent: scheduler))
            }
            let visits = await scheduler.run { () -> Int in
                first.value.visits += 1
                second.value.neighbour!.visits += 1
                return first.value.visits
            }
            #expect(visits == 2)
            #expect(first.owner === scheduler.executionContext)
        }
    }

    @Test(.exitTest) func makingABoxOffItsOwnerStopsTheProcessWithTheReport() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "exit.bound.current.owner")
            _ = DispatchQueue(label: "exit.bound.current.intruder").sync {
                SchedulerBound(Node(), onCurrent: owner)
            }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("member:          init(_:onCurrent:)"))
            #expect(stderr.contains("expected owner:  queue \"exit.bound.current.owner\""))
        }
    }

    @Test(.exitTest) func makingABoxOffAThreadSchedulerStopsTheProcess() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = ThreadScheduler(label: "exit.bound.thread")
            _ = SchedulerBound(Node(), onCurrent: owner)
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("member:          init(_:onCurrent:)"))
            #expect(stderr.contains("expected owner:  thread scheduler \"exit.bound.thread\""))
        }
    }
}
