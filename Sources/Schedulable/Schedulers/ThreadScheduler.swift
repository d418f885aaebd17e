import CSchedulableContext
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scheduler with one dedicated thread and its own first-in, first-out event loop — the
/// SchedulableObject pattern's scheduler for a cluster of services that should live off the main
/// thread.
///
/// ```swift
/// let business = ThreadScheduler(label: "com.app.business", qos: .utility)
/// business.schedule { assembly.printer.print("hello") }
/// let name = business.sync { assembly.profile.displayName }
/// business.shutdown()
/// ```
///
/// - The thread sleeps in the kernel while the queue is empty: an idle scheduler uses no CPU.
/// - Events run one at a time, in the order they were accepted, each inside ``executionContext``.
/// - ``sync(file:line:function:_:)`` called from another thread scheduler keeps the caller's own loop turning while it
///   waits, so two schedulers that call each other synchronously (a lazy assembly that builds A on one
///   thread, whose initializer needs B from another, whose initializer needs C from the first) finish
///   instead of deadlocking.
/// - ``shutdown()`` stops accepting events, runs every event already accepted, then ends the thread.
///   Work submitted afterwards is rejected — ``trySchedule(_:)`` throws ``ScheduleRejection`` and
///   ``SerialScheduler/schedule(_:file:line:function:)`` reports it — never dropped silently. A scheduler that is
///   released without ``shutdown()`` shuts down by itself (without waiting) once nothing refers to it.
///
/// Each scheduler's context has a process-unique id that is never reused, so an object bound to a
/// scheduler that has ended can never pass a check on a later thread, even when the operating system
/// hands that thread the same `pthread_t`.
public final class ThreadScheduler: SerialScheduler {
    /// The scheduler's label; also the thread's name (truncated to the 15 bytes Linux allows).
    public let label: String

    /// The identity checks compare against.
    public let executionContext: ExecutionContext

    let loop: ThreadSchedulerLoop
    /// The settled record this scheduler's fixed-owner objects share in a release build without the
    /// debug tier (see ``Confinement``); empty until the first one.
    package let sharedFixedRecord = OnceSlot()
    private let requestedQoS: LockedValue<DispatchQoS.QoSClass>

    /// The stack size a scheduler's thread gets unless its initializer says otherwise: 8 MiB, the
    /// usual Linux default and Darwin's main-thread size, on every platform — Darwin gives secondary
    /// threads only 512 KiB, and code tested on Linux must not overflow it on a phone.
    public static let defaultStackSize = 8 << 20

    /// Creates a scheduler and starts its thread.
    ///
    /// - Parameters:
    ///   - label: A reverse-DNS label, e.g. `com.app.business`, used in reports and as the thread name.
    ///     An empty or whitespace-only label stops a debug build here, with this call site in the message;
    ///     a release build warns and labels the scheduler `unlabelled (File.swift:line)`.
    ///   - qos: The thread's priority class. On Darwin the thread is created with it
    ///     (`pthread_attr_set_qos_class_np`). On Linux it becomes the thread's nice value (`.utility` 5,
    ///     `.background` 10; `.userInitiated` and `.userInteractive` ask for a negative value, which the
    ///     system grants only to privileged processes — otherwise the thread keeps the default).
    ///   - stackSize: The thread's stack size in bytes, rounded up to the page size and the system's
    ///     minimum; ``defaultStackSize`` (8 MiB) on every platform unless you choose.
    ///   - file: The call site, named if the label is refused.
    ///   - line: The call site, named if the label is refused.
    public init(
        label: String, qos: DispatchQoS.QoSClass = .default, stackSize: Int = ThreadScheduler.defaultStackSize,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        let label = ExecutionContext.meaningfulLabel(label, in: "ThreadScheduler(label:qos:stackSize:)", file: file, line: line)
        precondition(stackSize > 0, "ThreadScheduler(label:qos:stackSize:): the stack size must be positive, not \(stackSize)")
        let context = ExecutionContext(label: label, parent: nil, kind: .threadScheduler, id: UInt(csched_next_id()))
        self.label = label
        self.executionContext = context
        self.loop = ThreadSchedulerLoop(context: context)
        self.requestedQoS = LockedValue(qos)
        loop.start(threadName: label, stackSize: stackSize, qosClass: Self.qosClassValue(qos)) {
            _ = Self.applyToCurrentThread(qos)
        }
        SchedulerRegistry.register(self)
    }

    deinit {
        SchedulerRegistry.forget(executionContext.id)
        // Nothing can submit to this scheduler any more; let the thread drain and end on its own.
        // (`deinit` may run on the scheduler's own thread, so it must not wait for it.)
        loop.shutdown(waits: false)
    }

    // MARK: Scheduling

    /// Submits `work` to run on the scheduler's thread after everything submitted before it.
    ///
    /// - Parameter work: The work to run.
    /// - Throws: ``ScheduleRejection`` with reason ``ScheduleRejection/Reason/shutDown`` after
    ///   ``shutdown()``.
    public func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        try trySchedule(work, recording: .unrecorded)
    }

    /// ``trySchedule(_:)`` with the work's scheduling site, published while it runs.
    package func trySchedule(_ work: @escaping @Sendable () -> Void, recording site: WorkSite) throws(ScheduleRejection) {
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        guard loop.enqueue(AutomaticTestReporting.carryingCurrentTest(work), site: site) else {
            throw ScheduleRejection(reason: .shutDown, schedulerLabel: label)
        }
    }

    /// Runs `work` now when the calling code already runs on this scheduler, otherwise schedules it
    /// (the pattern's two interaction rules: same scheduler — a direct call; another one — an event).
    ///
    /// - Parameters:
    ///   - work: The work to run.
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - function: The calling function, for reports made while the work runs.
    public func perform(
        _ work: @escaping @Sendable () -> Void, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) {
        performInlineOrSchedule(file: file, line: line, function: function, work)
    }

    /// Runs `body` on this scheduler and returns its result.
    ///
    /// - Called on this scheduler, `body` runs inline.
    /// - Called from another thread scheduler's event, the caller keeps running its own events while it
    ///   waits (one at a time, in order, on its own thread), so the work may call back into the caller
    ///   synchronously without deadlocking. Because the caller keeps working, its objects do *not*
    ///   pass checks inside `body`.
    /// - Called from any other thread, the caller blocks; its contexts stay valid inside `body` (it can
    ///   do nothing else meanwhile), so `body` may use the caller's objects.
    ///
    /// A synchronous call into a scheduler that was shut down is reported as
    /// ``ConfinementViolation/Kind/rejectedWork`` at the precondition tier: there is no result to return.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - function: The calling function, for reports made while the work runs.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func sync<T, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        if isIsolated { return try body() }
        // `body` and its result cross to the scheduler's thread and back while this caller waits for
        // them, so neither is ever used by two threads at once; the box says so to the compiler.
        return try withoutActuallyEscaping(body) { (escapable) throws(E) -> T in
            let call = SyncCall(body: escapable)
            let context = executionContext
            CallerWait.wait(lendingQoSTo: loop) { blockedCaller, wake in
                let site = WorkSite(location: PackedCodeLocation(file: file, line: line), function: function)
                submit(member: "sync(_:)", file: file, line: line, function: function, tier: .precondition) {
                    if let blockedCaller {
                        context.run(onBehalfOf: blockedCaller, site: site) { call.run() }
                    } else {
                        // The caller pumps its own loop: the event already runs in this context alone.
                        call.run()
                    }
                    wake()
                }
            }
            return try call.result!.get()
        }
    }

    // MARK: Shutdown

    /// Stops accepting work, runs every event already accepted, and waits for the thread to end.
    ///
    /// Called from the scheduler's own thread (inside one of its events) it cannot wait for itself:
    /// it stops accepting work and returns, and the thread ends after the remaining events. Calling it
    /// again, from anywhere, is harmless; from another thread it waits for the end as well.
    ///
    /// Delayed work already due runs; delayed work not yet due and repeating timers are cancelled and
    /// each is reported as a ``ConfinementViolation/Kind/cancelledAtShutdown`` note (see the
    /// Schedulers article, "Delays, timers and cancellation").
    public func shutdown() {
        loop.shutdown(waits: true)
    }

    /// Whether ``shutdown()`` was called (the scheduler no longer accepts work).
    public var isShutDown: Bool { loop.isShutDown }

    // MARK: Priority

    /// The priority class requested at creation or by the last ``setQoS(_:)``.
    public var qos: DispatchQoS.QoSClass { requestedQoS.withLock { $0 } }

    /// Changes the thread's priority class — for instance to raise the cluster of services of the
    /// account the user is looking at above the others.
    ///
    /// - Parameter qos: The new priority class (see ``init(label:qos:stackSize:file:line:)`` for the Linux mapping).
    /// - Returns: Whether the operating system applied it (raising above the default needs privileges
    ///   on Linux).
    @discardableResult
    public func setQoS(_ qos: DispatchQoS.QoSClass) -> Bool {
        requestedQoS.withLock { $0 = qos }
        // Linux sets another thread's nice value directly; Darwin sets a QoS class only from the thread
        // itself (the C layer answers -1), so the change hops onto it.
        switch csched_set_thread_qos(UInt64(loop.osThreadID.loadAcquiring()), Self.qosClassValue(qos), Self.niceValue(for: qos)) {
        case 1: return true
        case 0: return false
        default:
            perform { _ = Self.applyToCurrentThread(qos) }
            return true
        }
    }

    /// The Linux nice value for a priority class.
    static func niceValue(for qos: DispatchQoS.QoSClass) -> Int32 {
        switch qos {
        case .userInteractive: return -10
        case .userInitiated: return -5
        case .utility: return 5
        case .background: return 10
        default: return 0
        }
    }

    /// The Darwin `qos_class_t` value of a priority class (stable ABI values, spelled out so the
    /// Linux build computes the same thing).
    static func qosClassValue(_ qos: DispatchQoS.QoSClass) -> UInt32 {
        switch qos {
        case .userInteractive: return 0x21
        case .userInitiated: return 0x19
        case .default: return 0x15
        case .utility: return 0x11
        case .background: return 0x09
        default: return 0
        }
    }

    private static func applyToCurrentThread(_ qos: DispatchQoS.QoSClass) -> Bool {
        csched_set_current_thread_qos(qosClassValue(qos), niceValue(for: qos))
    }
}
