import Dispatch
import Schedulable
import Testing

/// The library's schedulers, for behaviour that must hold on every one of them.
enum LibrarySchedulerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case main
    case queue
    case branch
    case thread

    var testDescription: String { rawValue }

    /// A fresh scheduler of this kind (for `.main`, the one there is). Pass it to ``finish(_:)`` at
    /// the end of the test.
    func make(_ label: String) -> any SerialScheduler {
        switch self {
        case .main: return MainThreadScheduler.shared
        case .queue: return SerialQueueScheduler(label: label)
        case .branch: return SerialQueueScheduler(label: label).branch("branch")
        case .thread: return ThreadScheduler(label: label)
        }
    }
}

/// Ends a scheduler made by ``LibrarySchedulerKind/make(_:)`` (shuts a thread scheduler down).
func finish(_ scheduler: any SerialScheduler) {
    (scheduler as? ThreadScheduler)?.shutdown()
}

/// Occupies `scheduler` with an event that waits until the returned semaphore is signalled, and returns
/// once that event runs: everything submitted meanwhile queues up behind it.
func occupy(_ scheduler: any SerialScheduler) -> DispatchSemaphore {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    scheduler.schedule {
        started.signal()
        release.wait()
    }
    started.wait()
    return release
}

/// Returns once every event submitted to `scheduler` before this call has run (`false` after 5 s, so a
/// bug shows up as a failure instead of a hung run).
@discardableResult
func drain(_ scheduler: any SerialScheduler) -> Bool {
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule { done.signal() }
    return done.wait(timeout: .now() + 5) == .success
}

/// Waits for `group` for at most 5 s.
func waitForAll(_ group: DispatchGroup) -> Bool {
    group.wait(timeout: .now() + 5) == .success
}

/// Sleeps the calling thread (a fence that gives a wrong firing the chance to happen; never a
/// measurement).
func pause(milliseconds: Int) {
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(milliseconds))
}
