// The probe's "stack-capture <reports>" mode: reports of a queue-owned object's guard made by top-level
// code on the main thread, each through a frame whose frame-pointer register holds an async-looking
// value (CSchedulableTestSupport). The test-process cases are `StackCaptureStressTests`; this is the
// main thread's, which only a program of its own can run code on.

import CSchedulableContext
import CSchedulableTestSupport
import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts violations (one thread makes them all, and reads them after).
private final class CountingHandler: ConfinementViolationHandler, @unchecked Sendable {
    var reports = 0
    var withSite = 0
    var reachingBelow = 0

    func handle(_ violation: ConfinementViolation) {
        reports += 1
        if violation.accessSite?.line != nil { withSite += 1 }
        if violation.stack.contains(where: { $0.function.contains("probeBelowTheClobberedFrame") }) { reachingBelow += 1 }
    }
}

private final class Guarded: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    init(owner: some SerialScheduler) { confinement = Confinement(owner: owner) }
    func touch() { assertIsolated() }
}

@inline(never) private func probeBelowTheClobberedFrame(_ guarded: Guarded) {
    let context = Unmanaged.passUnretained(guarded).toOpaque()
    csched_test_call_with_clobbered_frame_pointer({ context in
        Unmanaged<Guarded>.fromOpaque(context!).takeUnretainedValue().touch()
    }, context)
}

/// Exits 0 when every report was made on the main thread with its site and the frames below the
/// clobbered one; 30 when the debug tier is compiled out (nothing is captured), 31–33 otherwise.
func runStackCaptureOnMainThread(reports: Int) -> Never {
    guard ConfinementSystem.debugChecksCompiledIn else { exit(30) }
    require(csched_is_main_thread(), 31)
    let handler = CountingHandler()
    let guarded = withConfinementViolationHandler(handler) { Guarded(owner: SerialQueueScheduler(label: "probe.capture")) }
    guarded.confinement.endConstruction()
    for _ in 0..<reports { probeBelowTheClobberedFrame(guarded) }
    require(handler.reports == reports && handler.withSite == reports, 32)
    require(!csched_test_clobbers_frame_pointer() || handler.reachingBelow == reports, 33)
    exit(0)
}
