import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// A protected object with one guarded method, one guarded property and one always-on guard.
final class Counter: ConfinedObject {
    let confinement: Confinement
    @Confined(name: "value") var value = 0

    /// Binds the counter to `owner` and lets the owner use it once, which ends the construction window
    /// (the creating thread's free pass): from then on only the owner passes. Without this, a GCD block
    /// that happened to run on the creating thread (cooperative threads are GCD workers on Linux) would
    /// pass, and a test expecting a violation would be flaky. The owner's use is an always-on check, so
    /// that it ends the window in release builds too, where the debug tier is compiled out.
    init(owner: SerialQueueScheduler, file: StaticString = #fileID, line: UInt = #line) {
        confinement = Confinement(owner: owner, file: file, line: line)
        owner.sync { self.preconditionIsolated() }
    }

    /// Calls to the guarded methods. Deliberately not `@Confined`, so that one wrong call is
    /// one violation (the method guard's) and tests can count them.
    private(set) var calls = 0

    /// The line of `increment()`'s guard: the call site its reports carry.
    static let incrementGuardLine = #line + 3

    func increment() {
        assertIsolated()
        calls += 1
    }

    func incrementOrStop() {
        preconditionIsolated()
        calls += 1
    }
}

// These tests use counters from the wrong threads on purpose; the checks under test are what makes
// that observable.
extension Counter: @unchecked Sendable {}

/// Runs `body` on a global-queue thread and waits for it: the classic "completion handler on the
/// wrong queue". (Not `DispatchQueue.global().sync`: that runs the block on the calling thread.)
func onBackgroundThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchGroup()
    DispatchQueue.global().async(group: done, execute: body)
    done.wait()
}

/// Runs `body` on a global-queue thread and resumes when it is done, without blocking a cooperative
/// thread.
func onBackgroundThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            body()
            done.resume()
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// For tests that need a debug-tier violation to happen: in a release build without the
    /// `ReleaseChecks` trait, `assertIsolated()` and `@Confined` are compiled out.
    static var requiresDebugChecks: Self {
        .enabled(if: ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
    }
}

/// A plain class with no confinement of its own: only a `SchedulableObject` around it confines it.
final class Tally {
    private(set) var count = 0
    func add() { count += 1 }
}
