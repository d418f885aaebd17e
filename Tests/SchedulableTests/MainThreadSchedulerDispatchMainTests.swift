import CSchedulableContext
import Dispatch
import Testing

@testable import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A service of the user interface, owned by the main scheduler.
///
/// `@unchecked Sendable` so that tests can hand the reference to other threads: every member is
/// checked, which is what these tests exercise.
private final class Screen: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var title = ""

    init(confinement: Confinement) {
        self.confinement = confinement
    }

    func render() {
        preconditionIsolated()
        title += "!"
    }
}

@Suite("Main scheduler under dispatchMain()")
struct MainThreadSchedulerDispatchMainTests {
    /// Swift's async entry point on Linux parks the main thread in `dispatchMain()`, which drains the
    /// main queue on a worker thread. A fresh child process is the only place where nothing has
    /// touched the main context yet, so the first main-queue work is also the first check.
    @Test(.exitTest) func mainQueueWorkDrainedByDispatchMainPassesMainOwnedChecks() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            DispatchQueue.main.async {
                // The main queue is drained away from the main thread: the case under test.
                guard !csched_is_main_thread() else { exit(3) }
                // First check in the process, on an object bound by this use.
                let detached = Screen(confinement: .detached())
                detached.render()
                guard detached.confinement.owner === ExecutionContext.main else { exit(4) }
                let owned = Screen(confinement: Confinement(owner: MainThreadScheduler.shared))
                MainThreadScheduler.shared.schedule {
                    guard MainThreadScheduler.shared.isIsolated else { exit(5) }
                    owned.render()
                    detached.render()
                    DispatchQueue.main.async {
                        owned.render()
                        detached.render()
                        exit(owned.title == "!!" && detached.title == "!!!" ? 0 : 6)
                    }
                }
            }
            // Wait without holding a thread: the main queue is drained by the same small pool that
            // runs this body, and a blocked pool thread can starve it on a two-core machine.
            try? await Task.sleep(for: .seconds(30))
            exit(7)
        }
    }

    @Test(.exitTest) func aMainOwnedObjectFailsInAThreadSchedulersOwnEvent() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owned = Screen(confinement: Confinement(owner: MainThreadScheduler.shared))
            let worker = ThreadScheduler(label: "test.main.worker")
            DispatchQueue.main.async {
                owned.render()  // Closes the construction window: the owner has used it.
                // Not a synchronous call on the main queue's behalf: the main queue keeps running.
                worker.schedule { owned.render() }
            }
            try? await Task.sleep(for: .seconds(30))
            exit(0)  // Reached only if the access was not caught.
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("expected owner:  main thread"))
        #expect(stderr.contains("actual context:  thread scheduler \"test.main.worker\""))
    }
}
