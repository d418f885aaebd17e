import Dispatch
import Schedulable
import Testing

/// The message a trap stops the process with names the kind of violation — in a crash log that lost
/// the report above it, "used outside its owner" for a deadlock or for work after shutdown would
/// send the reader the wrong way.
@Suite struct TrapMessageTests {
    @Test(.exitTest) func aWrongContextTrapSaysWrongContext() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // A thread scheduler owner: libdispatch has no say, so the library's own trap ends the process.
            let counter = Counter(owner: ThreadScheduler(label: "exit.trap.wrong"))
            counter.confinement.endConstruction()
            counter.incrementAlways()
        }
        #expect(fatalErrorMessage(result) == "Schedulable: wrong context: Counter.incrementAlways() used outside its owner (report above)")
    }

    /// The debug tier traps through the default handler: same message.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn && ConfinementSystem.defaultLevel == .trap))
    func aDebugTierTrapSaysWrongContextToo() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let counter = Counter(owner: ThreadScheduler(label: "exit.trap.debug"))
            counter.confinement.endConstruction()
            counter.increment()
        }
        #expect(fatalErrorMessage(result) == "Schedulable: wrong context: Counter.increment() used outside its owner (report above)")
    }

    @Test(.exitTest) func aSyncAfterShutdownTrapSaysRejectedWork() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "exit.trap.closed")
            scheduler.shutdown()
            scheduler.sync {}
        }
        #expect(fatalErrorMessage(result) == "Schedulable: rejected work: sync(_:) not accepted by thread scheduler \"exit.trap.closed\" (report above)")
    }

    @Test(.exitTest) func aSelfDeadlockingSyncTrapSaysDeadlockingWait() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.trap.tree")
            let branch = tree.branch("leaf")
            tree.sync { branch.sync {} }
        }
        #expect(fatalErrorMessage(result) == "Schedulable: deadlocking wait: sync(_:) would wait forever for queue \"exit.trap.tree.leaf\" (report above)")
    }

    // The concurrent-queue kind's trap message is checked where that scenario lives: TiersTests
    // (wrappedQueueThatTurnsOutConcurrentIsReported).
}
