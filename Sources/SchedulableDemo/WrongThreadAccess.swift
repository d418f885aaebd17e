import Dispatch
import Foundation
import Schedulable

/// Makes the bug Schedulable exists for: a reference to a scheduler-owned object escapes, and a
/// callback on another queue uses it. Swift 6's checking does not see it here because the reference
/// crosses through `nonisolated(unsafe)`, as it would through a C callback, an Objective-C delegate
/// or a `@preconcurrency` API.
func demonstrateWrongThreadAccess(logHandler: LogViolationHandler) {
    print("A deliberate bug: a legacy callback reads the upload queue from another queue.")
    guard ConfinementSystem.debugChecksCompiledIn else {
        print("""
            This build has the debug-tier checks compiled out (release without the ReleaseChecks trait), so
            the access below goes unnoticed, as it would in a shipped app. Run `swift run schedulable-demo`
            (debug) to see the report.
            """)
        return
    }

    let uploads = SerialQueueScheduler(label: "com.example.uploads", qos: .userInitiated)
    let service = SchedulerBound(UploadQueue(owner: uploads, costPerPhoto: .zero), owner: uploads)
    uploads.sync { service.value.add(Photo(number: 1)) }        // correct: on the owner
    // The report goes to stderr; flush what came before so the two streams read in order.
    fflush(nil)  // all streams: naming `stdout` is a shared-mutable-state error in Swift 6

    // The bug: the object itself leaks out of its scheduler...
    nonisolated(unsafe) let leaked = uploads.sync { service.value }
    let callbacks = DispatchQueue(label: "com.example.legacy-callbacks")
    let done = DispatchSemaphore(value: 0)
    callbacks.async {
        // ...and a completion handler on the wrong queue touches it: reported, here in log mode.
        _ = leaked.pendingCount()
        done.signal()
    }
    done.wait()

    let member = "UploadQueue.pendingCount()"
    print("""
        The report above (stderr) names the type, the member, the expected owner, the actual queue and \
        where the owner was bound.
        Log mode counted \(logHandler.count(for: member)) violation(s) of \(member); a debug build without \
        bootstrap(.log) would have stopped there.
        """)
}
