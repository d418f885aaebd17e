import CSchedulableContext
import Dispatch
import Testing

@testable import Schedulable

/// The parts of a thread scheduler's thread that are written for Darwin but run on Linux too: the
/// stack size, the names reports give threads, and waiting with a QoS to lend.
@Suite("ThreadScheduler: thread attributes and names")
struct ThreadSchedulerPlatformTests {
    @Test(arguments: [256 << 10, 1 << 20, 3 << 20])
    func threadGetsTheStackSizeAskedFor(_ stackSize: Int) {
        let scheduler = ThreadScheduler(label: "test.stack", stackSize: stackSize)
        defer { scheduler.shutdown() }
        let actual = scheduler.sync { Int(csched_current_thread_stack_size()) }
        // glibc may hand a new thread a cached stack of up to four times the size asked for.
        #expect(actual >= stackSize && actual <= 4 * stackSize)
    }

    @Test func defaultStackSizeIsTheSameEightMebibytesEverywhere() {
        #expect(ThreadScheduler.defaultStackSize == 8 << 20)
        let scheduler = ThreadScheduler(label: "test.stack.default")
        defer { scheduler.shutdown() }
        #expect(scheduler.sync { Int(csched_current_thread_stack_size()) } >= ThreadScheduler.defaultStackSize)
    }

    @Test func oddAndTinyStackSizesAreRoundedUpAndTheThreadRuns() {
        for requested in [1, 100_001] {
            let scheduler = ThreadScheduler(label: "test.stack.odd", stackSize: requested)
            let actual = scheduler.sync { Int(csched_current_thread_stack_size()) }
            scheduler.shutdown()
            // Rounded up to the page size before pthread_attr_setstacksize (Darwin refuses anything
            // else); what the system then reports may include its own additions (ThreadSanitizer's).
            #expect(actual >= max(requested, 16 << 10))
        }
    }

    /// Recursion that needs about 1 MiB of stack runs on a scheduler given 4 MiB — the case a Darwin
    /// default of 512 KiB would crash on.
    @Test func deepRecursionFitsTheStackItWasGiven() {
        @inline(never) func depth(_ n: Int) -> Int {
            var frame = (n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n)  // 128 bytes per call, at least
            return withUnsafeMutableBytes(of: &frame) { $0.count } > 0 && n > 0 ? 1 + depth(n - 1) : 0
        }
        let scheduler = ThreadScheduler(label: "test.stack.deep", stackSize: 4 << 20)
        defer { scheduler.shutdown() }
        #expect(scheduler.sync { depth(5_000) } == 5_000)
    }

    @Test func reportsNameAGCDWorkerAfterTheSerialQueueItRuns() {
        for round in 0..<20 {
            let label = "com.example.a-long-queue-label.\(round)"
            let name = resultOnQueue(DispatchQueue(label: label)) { ThreadName.current }
            #expect(name == label)
        }
    }

    @Test func reportsNameAGlobalQueueWorkerAfterTheWholeRootQueueLabel() {
        for _ in 0..<20 {
            let name = resultOnQueue(DispatchQueue.global()) { ThreadName.current }
            #if os(Linux)
            #expect(name?.hasPrefix("com.apple.root.") == true)   // not the kernel's "oot.default-qos"
            #endif
            #expect(name?.utf8.count != 15)
        }
    }

    @Test func aThreadSchedulersThreadKeepsItsWholeLabelInsideQueueWork() {
        let scheduler = ThreadScheduler(label: "com.example.a-thread-with-a-long-label")
        defer { scheduler.shutdown() }
        let name = scheduler.sync { DispatchQueue(label: "com.example.inner").sync { ThreadName.current } }
        #expect(name == "com.example.a-thread-with-a-long-label")
    }

    /// A caller of another QoS waits for the thread: on Darwin it lends its QoS for the wait, on Linux
    /// nothing is lent; either way every call completes with its own result, however often.
    @Test func syncFromCallersOfEveryQoSCompletes() {
        let scheduler = ThreadScheduler(label: "test.qos.lend", qos: .utility)
        defer { scheduler.shutdown() }
        let done = DispatchGroup()
        let wrong = ManagedCounter()
        for qos in [DispatchQoS.QoSClass.userInteractive, .userInitiated, .default, .background] {
            for index in 0..<50 {
                DispatchQueue.global(qos: qos).async(group: done) {
                    if scheduler.sync({ index }) != index { wrong.add() }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(wrong.value == 0)
    }
}
