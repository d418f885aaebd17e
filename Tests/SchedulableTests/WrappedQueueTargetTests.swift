import CSchedulableContext
import Dispatch
import Schedulable
import Testing

/// A plain queue that targets a library tree is part of that tree; wrapping it must not change that.
@Suite("Wrapped queues keep their target relation")
struct WrappedQueueTargetTests {
    static let repetitions = 200

    /// The same accesses, before and after wrapping: the tree's object passes in the wrapped queue's
    /// work both times; the wrapped queue's object does not pass in the tree's own work (a tree does
    /// not hold its branches), 200 times each.
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func aWrappedQueueIsABranchOfTheTreeItTargets() throws {
        let recorder = ViolationRecorder()
        let tree = SerialQueueScheduler(label: "test.wrapped.tree")
        let plain = DispatchQueue(label: "test.wrapped.plain", target: tree.queue)
        var answers: [String: Int] = [:]
        for index in 0..<Self.repetitions {
            let treeOwned = withConfinementViolationHandler(recorder) { Counter(owner: tree) }
            treeOwned.confinement.endConstruction()
            let beforeWrapping = plain.sync { treeOwned.confinement.isIsolated }
            answers["before \(beforeWrapping)", default: 0] += 1
            if index == 0 {
                let wrapped = try SerialQueueScheduler(wrapping: plain)
                #expect(wrapped.parent === tree)
                #expect(wrapped.executionContext.parent === tree.executionContext)
            }
            let wrapped = try SerialQueueScheduler(wrapping: plain)
            let wrappedOwned = withConfinementViolationHandler(recorder) { Counter(owner: wrapped) }
            wrappedOwned.confinement.endConstruction()
            let seen = [
                wrapped.sync { treeOwned.confinement.isIsolated },
                plain.sync { treeOwned.confinement.isIsolated },
                tree.sync { wrappedOwned.confinement.isIsolated },
            ]
            answers["after \(seen)", default: 0] += 1
            wrapped.sync { treeOwned.ping() }
            tree.sync { wrappedOwned.ping() }
        }
        #expect(answers == ["before true": Self.repetitions, "after [true, true, false]": Self.repetitions])
        #expect(recorder.violations.map(\.member) == Array(repeating: "ping()", count: expectedDebugTier(Self.repetitions)))
    }

    /// A `sync` onto the wrapped queue from the tree's work could never return: reported before
    /// anything blocks.
    @Test(.exitTest, .enabled(if: csched_dispatch_reader_confirmed())) func aSyncOntoTheWrappedQueueFromItsTreeIsADeadlockReport() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.wrapped.tree")
            let wrapped = try! SerialQueueScheduler(wrapping: DispatchQueue(label: "exit.wrapped.plain", target: tree.queue))
            tree.sync { wrapped.sync {} }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
            #expect(stderr.contains("expected owner:  queue \"exit.wrapped.plain\""))
        }
    }

    /// A queue that targets no library queue stays a tree of its own.
    @Test func aQueueTargetingNoLibraryQueueIsATree() throws {
        let foreign = DispatchQueue(label: "test.wrapped.foreign.target")
        let wrapped = try SerialQueueScheduler(wrapping: DispatchQueue(label: "test.wrapped.foreign", target: foreign))
        #expect(wrapped.parent == nil)
        #expect(wrapped.executionContext.parent == nil)
    }
}
