import Dispatch
import Schedulable
import Testing

/// The message a trap stops the process with names the kind of violation — in a crash log that lost
/// the report above it, "used outside its owner" for a deadlock or for work after shutdown would
/// send the reader the wrong way.
@Suite struct TrapMessageTests {
    /// The line the runtime prints for `fatalError(message)`, whatever prefix (file and line in debug
    /// builds) it puts before "Fatal error".
    private func trapLine(in result: ExitTest.Result) -> String? {
        standardErrorText(result).split(separator: "\n").first { $0.contains("Fatal error: ") }.map {
            String($0[$0.range(of: "Fatal error: ")!.upperBound...])
        }
    }

    @Test func aWrongContextTrapSaysWrongContext() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // A thread scheduler owner: libdispatch has no say, so the library's own trap ends the process.
            let counter = Counter(owner: ThreadScheduler(label: "exit.trap.wrong"))
            counter.confinement.endConstruction()
            counter.incrementAlways()
        }
        #expect(trapLine(in: result) == "Schedulable: wrong context: Counter.incrementAlways() used outside its owner (report above)")
    }

    /// The debug tier traps through the default handler: same message.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn && ConfinementSystem.defaultLevel == .trap))
    func aDebugTierTrapSaysWrongContextToo() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let counter = Counter(owner: ThreadScheduler(label: "exit.trap.debug"))
            counter.confinement.endConstruction()
            counter.increment()
        }
        #expect(trapLine(in: result) == "Schedulable: wrong context: Counter.increment() used outside its owner (report above)")
    }

    @Test func aSyncAfterShutdownTrapSaysRejectedWork() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "exit.trap.closed")
            scheduler.shutdown()
            scheduler.sync {}
        }
        #expect(trapLine(in: result) == "Schedulable: rejected work: sync(_:) not accepted by thread scheduler \"exit.trap.closed\" (report above)")
    }

    @Test func aSelfDeadlockingSyncTrapSaysDeadlockingWait() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.trap.tree")
            let branch = tree.branch("leaf")
            tree.sync { branch.sync {} }
        }
        #expect(trapLine(in: result) == "Schedulable: deadlocking wait: sync(_:) would wait forever for queue \"exit.trap.tree.leaf\" (report above)")
    }

    @Test func aWrappedQueueThatIsConcurrentTrapsSayingConcurrentQueue() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let concurrent = DispatchQueue(label: "exit.trap.concurrent", attributes: .concurrent)
            let scheduler = try! SerialQueueScheduler(wrapping: concurrent)
            let bothRunning = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            for _ in 0..<2 {
                scheduler.schedule {
                    bothRunning.signal()
                    release.wait()
                }
            }
            bothRunning.wait()
            bothRunning.wait()
            release.signal()
            release.signal()
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 5)   // the report traps before this ends
        }
        let line = try #require(trapLine(in: result))
        #expect(line.hasPrefix("Schedulable: concurrent queue: schedule(_:) ran on a context that is not serial: "))
        #expect(line.hasSuffix(" (report above)"))
    }
}
