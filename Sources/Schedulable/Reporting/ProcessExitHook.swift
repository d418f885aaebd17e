#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's one exit handler: what must happen when the process exits normally, in a stated order,
/// whichever part of the library asked first.
///
/// `atexit` runs handlers in the reverse order of their registration, and each part of the library used
/// to register its own the first time it needed one, so the order depended on which came first at run
/// time. Here one handler is registered, the first time any stage is added, and it runs the stages in
/// the order of ``Stage``:
///
/// 1. ``Stage/flushReports``: every entry handed to the reporting thread is written (bounded wait).
/// 2. ``Stage/summaries``: the policy handlers' summaries of what they held back, after the reports.
/// 3. ``Stage/observations``: the observation file, after everything the run reported.
/// 4. ``Stage/testRun``: a test run that must exit with a failure says so last (it may end the process).
///
/// A stage's actions run in the order they were added. A stage's actions are read when the stage starts,
/// not when the hook does: an earlier stage can add to a later one (the reports written by
/// ``Stage/flushReports`` are where a policy handler first holds a report back, and so asks for its
/// summary). An action added to a stage that has started, or has run, is not run.
package enum ProcessExitHook {
    /// When an action runs, in this order.
    package enum Stage: Int, CaseIterable, Sendable {
        case flushReports, summaries, observations, testRun
    }

    private static let actions = LockedValue<(registered: Bool, byStage: [Stage: [@Sendable () -> Void]])>(
        (false, [:])
    )

    /// Adds `action` to `stage`, registering the exit handler the first time.
    ///
    /// - Parameters:
    ///   - stage: When it runs.
    ///   - action: What runs at exit, on the exiting thread.
    package static func add(_ stage: Stage, _ action: @escaping @Sendable () -> Void) {
        let first = actions.withLock { state -> Bool in
            state.byStage[stage, default: []].append(action)
            defer { state.registered = true }
            return !state.registered
        }
        if first { atexit { ProcessExitHook.run() } }
    }

    private static func run() {
        for stage in Stage.allCases {
            for action in actions.withLock({ $0.byStage[stage] ?? [] }) { action() }
        }
    }
}
