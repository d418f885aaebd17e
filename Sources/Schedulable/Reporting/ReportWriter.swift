import CSchedulableContext

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's reporting thread: where the printing handlers (`PolicyViolationHandler`,
/// `LogViolationHandler`, `JSONLinesViolationHandler`) symbolicate a report's stack, build its text
/// and write it, so that the thread that violated pays for the capture and an append to a queue only.
///
/// Invariants:
/// - Entries are written one at a time, in the order they were handed over (the order the handlers
///   decided them in).
/// - Nothing is dropped. At most ``capacity`` entries wait; a thread that finds the queue full waits
///   for room, so a storm of new sites slows the violating threads down instead of growing memory.
/// - ``flush()`` returns once everything handed over before it was written, or once the writer has made
///   no progress for a while (`CSCHED_REPORT_WAIT_IDLE_MS`): an output that never returns cannot turn
///   a trap or an exit into a hang, and what it kept from being written is said, not lost silently.
///   Every path that stops the process after a report flushes first: the library's traps, a normal
///   exit (``ProcessExitHook``), and a crash of any kind, the program's own included (the crash handler of
///   `csched_trap_report.h`, installed when this thread starts, waits the same way and then gives the
///   signal to the action installed before it). So a report is never lost to what ends the process,
///   nor printed after the library's own trap message.
/// - A job that hands over another job (a handler's output that itself reports) runs it inline: the
///   writer never waits for itself.
///
/// Test failures are not written here: a failure must be recorded while the test that caused it is
/// known, on the violating thread (`SchedulableTesting`). Nor, by default, is anything in a process
/// where a test framework is loaded (see ``isDefaultInThisProcess``).
package enum ReportWriter {
    /// How many entries may wait before a violating thread waits for room.
    package static let capacity = 1_024

    /// Whether the printing handlers write on the reporting thread in this process by default: not
    /// where a test framework (Swift Testing, XCTest) is loaded. A test reads what a handler printed as
    /// soon as the violation returns, and the parent of an exit test's child does not capture what the
    /// child writes to standard error once its body has returned (its exit handlers run, but measured
    /// here, their output is not in the result), so a report still waiting there would be lost; in a
    /// test, a report being there matters more than what it costs.
    package static let isDefaultInThisProcess = PlatformInternals.testFrameworksLoaded == 0

    private final class State: @unchecked Sendable {
        // @unchecked: the variables below are read and written only with `mutex` held; the mutex and
        // the conditions are made to be shared between threads.
        let mutex = PlatformMutex()
        /// Signalled when a job is added: the writer waits on it.
        let hasWork = PlatformCondition()
        /// Broadcast when a job has run: flushers and threads waiting for room wait on it.
        let progressed = PlatformCondition()
        var jobs: [@Sendable () -> Void] = []
        /// Jobs handed over, and jobs written, since the process started.
        var handedOver: UInt64 = 0
        var written: UInt64 = 0
        /// The writer thread's `csched_thread_unique_id()`; 0 before it started.
        var writer: UInt = 0
        /// Whether the writer was asked to start, and whether it could not (then jobs run inline).
        var startRequested = false
        var cannotStart = false
    }

    private static let state = State()

    /// Hands `job` to the reporting thread, which runs it after every job handed over before it; or,
    /// with `onReportingThread` false, runs it here and now.
    ///
    /// - Parameters:
    ///   - onReportingThread: Whether the job runs on the reporting thread.
    ///   - job: Builds an entry and writes it.
    package static func write(onReportingThread: Bool = true, _ job: @escaping @Sendable () -> Void) {
        guard onReportingThread else { return job() }
        let state = state
        let me = UInt(csched_thread_unique_id())
        state.mutex.lock()
        if !state.startRequested { start(state) }
        if state.cannotStart || state.writer == me {
            state.mutex.unlock()
            job()
            return
        }
        while state.handedOver - state.written >= UInt64(capacity) { state.progressed.wait(on: state.mutex) }
        state.jobs.append(job)
        state.handedOver += 1
        csched_crash_note_handed_over()
        state.hasWork.signal()
        state.mutex.unlock()
    }

    /// Runs a printing handler's decision about `violation` (count it at its access site, then hand over
    /// what the count calls for): here where the access site's key is known without symbols or
    /// `onReportingThread` is false, else on the reporting thread, so that the violating thread never
    /// symbolicates. A deferred decision's runtime issue is raised here, on the violating thread, whose
    /// stack Xcode shows with it.
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - known: The violation's ``ConfinementViolation/knownAccessSiteKey``, read once by the caller.
    ///   - onReportingThread: Whether the handler's entries are written on the reporting thread.
    ///   - raising: Whether the handler raises runtime issues.
    ///   - decide: Takes the access site's key and whether it is still to raise the runtime issue.
    package static func decide(
        about violation: ConfinementViolation, known: AnyHashable??, onReportingThread: Bool, raising: Bool,
        _ decide: @escaping @Sendable (_ accessSite: AnyHashable?, _ raising: Bool) -> Void
    ) {
        guard onReportingThread else { return decide(violation.accessSiteKey, raising) }
        if let known { return decide(known, raising) }
        if raising { PlatformInternals.raiseRuntimeIssue(violation.runtimeIssueLine) }
        write { decide(violation.accessSiteKey, false) }
    }

    /// Waits until every job handed over before this call has run, or until the reporting thread has
    /// made no progress (no entry written, and on Linux no CPU time used) for `CSCHED_REPORT_WAIT_IDLE_MS` (then says on standard error how many entries
    /// are still waiting). Called on the reporting thread itself, or before any job was handed over, it
    /// returns at once.
    package static func flush() {
        let unwritten = csched_crash_wait_for_reports(CSCHED_REPORT_WAIT_IDLE_MS, CSCHED_REPORT_WAIT_TOTAL_MS)
        if unwritten > 0 {
            StandardError.write(
                "Schedulable: \(unwritten) report(s) not yet written: the reporting thread made no progress "
                    + "(an output that does not return?)\n"
            )
        }
    }

    /// Starts the writer thread; called once, with the mutex held.
    private static func start(_ state: State) {
        state.startRequested = true
        var handle: UInt = 0
        // A stack as large as a thread scheduler's default: symbolication reads DWARF recursively.
        let result = csched_thread_start(&handle, { _ in ReportWriter.run() }, nil, 1 << 20, 0)
        if result != 0 {
            state.cannotStart = true
            return
        }
        csched_thread_detach(handle)
        // The writer takes the mutex before its first job: it cannot miss a signal sent now.
        ProcessExitHook.add(.flushReports) { ReportWriter.flush() }
        // From now on a report can be waiting when the process crashes (switch TRAP_REPORT turns the
        // crash handler off; then a crash can lose what is waiting, as the switch's row says).
        PlatformInternals.installCrashHandler()
    }

    /// The writer thread's loop: takes the waiting jobs, runs them in order, counts each.
    private static func run() -> Never {
        let state = state
        csched_set_thread_name("schedulable.reports")
        csched_crash_note_reporting_thread()
        state.mutex.lock()
        state.writer = UInt(csched_thread_unique_id())
        while true {
            while state.jobs.isEmpty { state.hasWork.wait(on: state.mutex) }
            let batch = state.jobs
            state.jobs.removeAll(keepingCapacity: true)
            state.mutex.unlock()
            for job in batch {
                // A job runs as a handler does: a violation its output raises is printed, not delivered
                // again (ConfinementReporting), which would hand over another job, and so on forever.
                let entered = csched_reporting_enter()
                job()
                if entered { csched_reporting_leave() }
                csched_crash_note_written()
                state.mutex.lock()
                state.written += 1
                state.progressed.broadcast()
                state.mutex.unlock()
            }
            state.mutex.lock()
        }
    }
}
