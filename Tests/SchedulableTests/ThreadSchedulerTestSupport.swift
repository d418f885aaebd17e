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

/// A plain pthread for tests that need producers or callers that are not library schedulers.
final class TestThread: @unchecked Sendable {
    // @unchecked: `handle` is written once, before `init` returns and before any other thread reads it.
    // The C target's portable start/join: `pthread_t` is an integer on Linux and a pointer on Darwin.
    private var handle: UInt = 0

    init(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle: UInt = 0
        let result = csched_thread_start(&handle, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box, 1 << 20, 0)
        precondition(result == 0)
        self.handle = handle
    }

    func join() {
        csched_thread_join(uintptr_t(handle))
    }

    /// Lets the thread run on unjoined (for tests that bound their wait with a timeout instead).
    func detach() {
        csched_thread_detach(uintptr_t(handle))
    }
}

/// Waits for `semaphore` up to `seconds`; false on timeout (a deadlock shows up as a test failure
/// instead of a hung test run).
func wait(_ semaphore: DispatchSemaphore, seconds: Double) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// Reads a whole small file (a /proc entry) without Foundation.
func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Whether this system describes each thread in `/proc/self/task` (Linux): the tests that read a
/// thread's CPU time, context switches or state run only there (Darwin has no procfs).
let threadsHaveProcEntries: Bool = {
    #if os(Linux)
    return true
    #else
    return false
    #endif
}()

/// The CPU time a thread of this process has used, in nanoseconds (first field of its schedstat).
func threadCPUNanoseconds(tid: UInt64) -> UInt64? {
    guard let text = readSmallFile("/proc/self/task/\(tid)/schedstat") else { return nil }
    return text.split(separator: " ").first.flatMap { UInt64($0) }
}

/// How many times a thread of this process has given up the CPU voluntarily (each wake-up of an idle
/// loop ends in one).
func threadVoluntaryContextSwitches(tid: UInt64) -> Int? {
    guard let text = readSmallFile("/proc/self/task/\(tid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
        return Int(line.split(separator: ":")[1].trimmingPrefix(while: { $0 == " " || $0 == "\t" }))
    }
    return nil
}

/// The state letter of a thread of this process (third field of its stat: `S` for a thread blocked
/// in the kernel, `R` running or runnable).
func threadState(tid: UInt64) -> Character? {
    guard let text = readSmallFile("/proc/self/task/\(tid)/stat"),
        let afterName = text.lastIndex(of: ")")  // The name field may hold spaces and parentheses.
    else { return nil }
    return text[text.index(after: afterName)...].first(where: { $0 != " " })
}

/// Waits until `scheduler`'s loop thread is asleep in its own wait: the precondition of a test that
/// counts the loop's wake-ups, proved rather than assumed after a sleep (on a loaded machine a loop
/// preempted after its last event may reach its wait only later, and that block would be counted).
///
/// `isLoopWaiting` read under the loop's mutex proves the loop is inside its condition wait, which
/// released the mutex; the kernel's `S` state (read after unlocking, so the loop cannot be blocked on
/// this test's hold) proves it has gone to sleep there. Nothing wakes it in between unless the
/// library does, which is what the callers test. False if that is not seen within `seconds`.
func waitUntilTheLoopSleeps(_ scheduler: ThreadScheduler, seconds: Double = 10) -> Bool {
    let tid = scheduler.osThreadID
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        let inItsWait = scheduler.loop.mutex.withLock { scheduler.loop.isLoopWaiting }
        if inItsWait && threadState(tid: tid) == "S" { return true }
        usleep(200)
    }
    return false
}

/// What a sleeping loop did during `milliseconds`: its thread's voluntary context switches and CPU
/// time (from the kernel), and its waits' counts (from the loop). Call when `waitUntilTheLoopSleeps`
/// has returned true.
///
/// The kernel's counts see any wake-up, however the loop waits; the loop's counts say whose it was (a
/// signal from its own code, a timed wait that ran out), so a failure names its cause. The loop counts
/// in debug builds only: in a release test run its counts are empty and the kernel's are the proof.
func observeSleepingLoop(
    _ scheduler: ThreadScheduler, milliseconds: Int
) async throws -> (switches: Int, cpuNanoseconds: UInt64, waits: WaitCounts) {
    let tid = scheduler.osThreadID
    let loop = scheduler.loop
    let wait = waitCounts(of: loop)
    let cpu = try #require(threadCPUNanoseconds(tid: tid))
    let switches = try #require(threadVoluntaryContextSwitches(tid: tid))
    try await Task.sleep(for: .milliseconds(milliseconds))
    let cpuAfter = try #require(threadCPUNanoseconds(tid: tid))
    let switchesAfter = try #require(threadVoluntaryContextSwitches(tid: tid))
    let waitAfter = waitCounts(of: loop)
    return (
        switchesAfter - switches, cpuAfter - cpu,
        waitAfter - wait
    )
}

/// The loop's wait counts now (empty in a release build, which does not count).
private func waitCounts(of loop: ThreadSchedulerLoop) -> WaitCounts {
    #if DEBUG
    loop.mutex.withLock { loop.waitCounts }
    #else
    WaitCounts()
    #endif
}

extension WaitCounts {
    /// The waits between two readings of the counts.
    static func - (after: WaitCounts, before: WaitCounts) -> WaitCounts {
        WaitCounts(
            returns: after.returns - before.returns, signals: after.signals - before.signals,
            timeouts: after.timeouts - before.timeouts
        )
    }
}
