import CSchedulableContext
import Dispatch

/// The only Swift code that reads another project's private layout or calls a private runtime entry
/// point (ARCHITECTURE.md, "Private internals"). Each function checks its internal's kill switch and
/// self-check (once per process) and answers "unknown" (`nil`, `false` or 0, as documented) when either
/// fails; callers in other layers keep the documented fallback for "unknown".
package enum PlatformInternals {
    /// The kill switches: setting `SCHEDULABLE_DISABLE_<name>` (any value) turns an internal off for the
    /// process. Read once per internal, before its first use. The C target reads the ones it uses
    /// itself (`DISPATCH_READER`, `LABEL_CONVENTIONS`, `TASK_IDS`, `CPU_COUNTER`).
    package enum Switch: String, CaseIterable, Sendable {
        case dispatchReader = "DISPATCH_READER"
        case queueAddress = "QUEUE_ADDRESS"
        case queueSpecificRead = "QUEUE_SPECIFIC_READ"
        case labelConventions = "LABEL_CONVENTIONS"
        case taskIDs = "TASK_IDS"
        case deinitExemption = "DEINIT_EXEMPTION"
        case trapReport = "TRAP_REPORT"
        case runtimeIssues = "RUNTIME_ISSUES"
        case testFrameworkProbe = "TEST_FRAMEWORK_PROBE"
        case propertyNames = "PROPERTY_NAMES"
        case runtimeBacktrace = "RUNTIME_BACKTRACE"
        case dwarfReader = "DWARF_READER"
        /// Read by the C target (isolation_hooks.c): Swift's isolation checks stay the runtime's traps.
        case isolationHook = "ISOLATION_HOOK"
        /// Read by the C target when it is loaded (work.c): work items are stamped by clock reads
        /// instead of the CPU's counter.
        case cpuCounter = "CPU_COUNTER"

        /// The environment variable that turns the internal off.
        package var environmentVariable: String { "SCHEDULABLE_DISABLE_" + rawValue }

        /// Whether the switch is set in this process's environment (read now).
        package var isSet: Bool { StandardError.environmentValue(environmentVariable) != nil }
    }

    // MARK: libdispatch's queue layout (drain lock, target, width)

    /// The libdispatch queue behind `queue`, or `nil` (switch `QUEUE_ADDRESS`, or the pointer's label is
    /// not the queue's). On Darwin the `DispatchQueue` *is* the `dispatch_queue_t`; in
    /// swift-corelibs-libdispatch it is the overlay class's one stored property (a private layout). Both
    /// are confirmed the same way: the pointer's `dispatch_queue_get_label` must be the queue's label.
    package static func queueAddress(of queue: DispatchQueue) -> UnsafeRawPointer? {
        guard queueAddressAllowed else { return nil }
        #if canImport(Darwin)
        let candidate: UnsafeRawPointer? = UnsafeRawPointer(Unmanaged.passUnretained(queue).toOpaque())
        #else
        let candidate = _getUnsafePointerToStoredProperties(queue).load(as: UnsafeRawPointer?.self)
        #endif
        guard let candidate, let label = csched_dispatch_queue_label(candidate), String(cString: label) == queue.label
        else { return nil }
        return candidate
    }

    private static let queueAddressAllowed = !Switch.queueAddress.isSet

    /// Whether the calling thread holds the serial queue `queue` (libdispatch's drain lock), or `nil`.
    package static func threadHolds(_ queue: DispatchQueue) -> Bool? {
        guard let address = queueAddress(of: queue) else { return nil }
        switch csched_thread_holds_queue(address) {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }

    /// The OS id of the thread that holds `queue`'s drain lock (runs its work now): 0 none, `nil`
    /// when the reader cannot tell. A snapshot, for reports only.
    package static func drainOwner(of queue: DispatchQueue) -> UInt64? {
        guard let address = queueAddress(of: queue) else { return nil }
        let owner = csched_queue_drain_owner(address)
        return owner < 0 ? nil : UInt64(owner)
    }

    /// Whether a thread other than the main thread holds the main queue's drain lock, i.e. runs main's
    /// work (a worker draining it under `dispatchMain()`); `false` on the main thread and where the
    /// reader is off. Rule 3's test for main off the main thread; its first call on a thread settles
    /// what `csched_runs_main_queue_work_settled` reads (inline, from the `@usableFromInline` main-queue
    /// proof `Checking.passesAsMainQueueWork(settledWord:)`, which cannot call a package member).
    @inline(__always)
    package static var runsMainQueueWork: Bool { csched_runs_main_queue_work() }

    /// `queue`'s `dq_width` (1 serial, more concurrent), or `nil`.
    package static func width(of queue: DispatchQueue) -> Int? {
        guard let address = queueAddress(of: queue) else { return nil }
        let width = csched_queue_width(address)
        return width < 0 ? nil : Int(width)
    }

    /// The queue the libdispatch queue at `address` targets, or `nil`.
    package static func target(ofQueueAt address: UnsafeRawPointer) -> UnsafeRawPointer? {
        csched_queue_target(address)
    }

    // MARK: The Dispatch overlay's queue-specific box

    /// A queue-specific key whose box the direct read was shown to read correctly in this process.
    package struct VerifiedSpecificKey: @unchecked Sendable {
        // @unchecked: a constant address, only ever passed to libdispatch as a key.
        fileprivate let raw: UnsafeRawPointer

        /// The key as a word, to keep it where a `static let` would cost `swift_once` per read.
        package var word: UInt { UInt(bitPattern: raw) }

        /// A key kept as ``word`` (only ever a word a verified key gave).
        @inline(__always)
        package init(keptWord word: UInt) {
            raw = UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped
        }

        fileprivate init(raw: UnsafeRawPointer) {
            self.raw = raw
        }
    }

    /// `key`'s C key (its object's address) once the direct read of the overlay's box is confirmed, or
    /// `nil` (switch `QUEUE_SPECIFIC_READ`, or the probe disagreed: use `DispatchQueue.getSpecific`).
    package static func verifiedSpecificKey<Value: AnyObject>(_ key: DispatchSpecificKey<Value>) -> VerifiedSpecificKey? {
        guard boxReadConfirmed else { return nil }
        return VerifiedSpecificKey(raw: UnsafeRawPointer(Unmanaged.passUnretained(key).toOpaque()))
    }

    /// The value the calling code's queue (or a queue it targets) keeps for `key`, unretained, or `nil`.
    @inline(__always)
    package static func currentSpecificValue(_ key: VerifiedSpecificKey) -> UnsafeRawPointer? {
        csched_queue_specific_value(key.raw)
    }

    /// The value the queue at `address` itself (not its targets) keeps for `key`, unretained, or `nil`.
    package static func ownSpecificValue(ofQueueAt address: UnsafeRawPointer, _ key: VerifiedSpecificKey) -> UnsafeRawPointer? {
        csched_queue_own_specific_value(address, key.raw)
    }

    /// The box self-check, once: on a probe queue, the direct read of a probe key returns exactly the
    /// object `getSpecific` returns (the overlay's box class is generic: one layout for every value class).
    private static let boxReadConfirmed: Bool = {
        guard !Switch.queueSpecificRead.isSet else { return false }
        final class Marker: Sendable {}
        let key = DispatchSpecificKey<Marker>()
        let marker = Marker()
        let probe = DispatchQueue(label: "schedulable.queue-specific-probe")
        probe.setSpecific(key: key, value: marker)
        defer { probe.setSpecific(key: key, value: nil) }
        let raw = UnsafeRawPointer(Unmanaged.passUnretained(key).toOpaque())
        return probe.sync {
            DispatchQueue.getSpecific(key: key) === marker
                && csched_queue_specific_value(raw) == UnsafeRawPointer(Unmanaged.passUnretained(marker).toOpaque())
        }
    }()

    // MARK: Queue label conventions

    /// Whether the calling code runs on a concurrent pool (a global queue's or Swift's pool's work).
    /// `true` when the conventions are unconfirmed (switch `LABEL_CONVENTIONS`): nothing is then bound
    /// to a thread that cannot be told from a pool worker.
    package static var runningOnPool: Bool { csched_running_on_pool() }

    /// Whether `label` names one of libdispatch's root (global) queues, or `nil` when the conventions
    /// are unconfirmed.
    package static func isRootQueueLabel(_ label: String) -> Bool? {
        guard csched_label_conventions_confirmed() else { return nil }
        return csched_label_is_root_queue(label)
    }

    // MARK: Swift runtime

    /// The current Swift task's id, or 0 outside a task — and always 0 when the runtime's functions are
    /// missing (older Apple OSes) or switch `TASK_IDS` is set: tasks then get no construction window.
    package static var currentTaskID: UInt64 { csched_current_task_id() }

    /// The identity of the executor the calling code runs on (`swift_task_getCurrentExecutor`): an actor,
    /// the main actor's, a custom one; 0 on the generic executor and outside any job — and always 0 when
    /// ``currentTaskID`` is.
    package static var currentExecutorIdentity: UInt { UInt(csched_current_executor_identity()) }

    /// Whether `object` is running its deinit (`swift_isDeallocating`), or `nil` (switch
    /// `DEINIT_EXEMPTION`, a class rooted in Objective-C, or the self-check failed).
    package static func isDeallocating(_ object: AnyObject) -> Bool? {
        guard deinitReadConfirmed else { return nil }
        let raw = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        guard csched_object_is_swift_native(raw) else { return nil }
        return csched_object_is_deallocating(raw)
    }

    /// The deinit self-check, once: a live probe reads "no", and the same probe reads "yes" in its deinit.
    private static let deinitReadConfirmed: Bool = {
        guard !Switch.deinitExemption.isSet else { return false }
        final class Probe {
            let seen: UnsafeMutablePointer<Bool>
            init(_ seen: UnsafeMutablePointer<Bool>) { self.seen = seen }
            deinit { seen.pointee = csched_object_is_deallocating(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) }
        }
        let seen = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        defer { seen.deallocate() }
        seen.pointee = false
        var probe: Probe? = Probe(seen)
        let liveSaysNo = !csched_object_is_deallocating(UnsafeRawPointer(Unmanaged.passUnretained(probe!).toOpaque()))
        probe = nil
        return liveSaysNo && seen.pointee
    }()

    /// Calls `field` for each stored property of `type` (name, byte offset, type) with the Swift
    /// runtime's field walk (`csched_for_each_field`: what the standard library's reflection SPI
    /// `_forEachField` calls, which release toolchains do not declare); `nil` when it cannot (switch
    /// `PROPERTY_NAMES`, a runtime without it, the self-check failed, or `field` stopped the walk).
    package static func forEachField(of type: AnyClass, _ field: (UnsafePointer<CChar>, Int, Any.Type) -> Bool) -> Bool? {
        guard fieldWalkConfirmed else { return nil }
        return walkFields(of: type, field) == true ? true : nil
    }

    private static func walkFields(of type: AnyClass, _ field: (UnsafePointer<CChar>, Int, Any.Type) -> Bool) -> Bool? {
        typealias Visit = (UnsafePointer<CChar>, Int, Any.Type) -> Bool
        // `Any.Type` is one word, the type's metadata, which is what the runtime takes and gives back.
        let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        return withoutActuallyEscaping(field) { field in
            var visit: Visit = field
            let walked = withUnsafeMutablePointer(to: &visit) { context in
                csched_for_each_field(metadata, context) { context, name, offset, fieldType in
                    let visit = context!.assumingMemoryBound(to: Visit.self).pointee
                    return visit(name, offset, unsafeBitCast(fieldType, to: Any.Type.self))
                }
            }
            return walked < 0 ? nil : walked == 1
        }
    }

    /// The field-walk self-check, once: a probe class's two fields come back named, in order, with
    /// increasing offsets and their types.
    private static let fieldWalkConfirmed: Bool = {
        guard !Switch.propertyNames.isSet else { return false }
        final class Probe { var first = 0; var second = "" }
        var seen: [(String, Int, Any.Type)] = []
        guard walkFields(of: Probe.self, { name, offset, type in seen.append((String(cString: name), offset, type)); return true }) == true,
            seen.count == 2
        else { return false }
        return seen[0].0 == "first" && seen[1].0 == "second" && seen[0].1 < seen[1].1
            && seen[0].2 == Int.self && seen[1].2 == String.self
    }()

    // MARK: Reporting facilities

    /// Runs `body` with `report` armed to be written to standard error if the thread traps in it (a
    /// failing `dispatchPrecondition` prints nothing on Linux); `nil`, without running `body`, when the
    /// trap report is off (switch `TRAP_REPORT`, or the signal handler could not be installed).
    package static func withTrapReport<Result>(_ report: String, _ body: () -> Result) -> Result? {
        guard trapReportAllowed, csched_trap_handler_installed() else { return nil }
        return report.withCString { text in
            csched_arm_trap_report(text)
            defer { csched_disarm_trap_report() }
            return body()
        }
    }

    private static let trapReportAllowed = !Switch.trapReport.isSet

    /// Installs the crash handler that writes waiting reports before the process dies (see
    /// `csched_trap_report.h`), unless switch `TRAP_REPORT` is set; returns whether it is installed.
    @discardableResult
    package static func installCrashHandler() -> Bool {
        trapReportAllowed && csched_trap_handler_installed()
    }

    /// Raises an Xcode runtime issue with `message` (Apple only; nothing elsewhere, or with switch
    /// `RUNTIME_ISSUES`, or when os_log's private entry point is missing).
    package static func raiseRuntimeIssue(_ message: String) {
        guard runtimeIssuesAllowed else { return }
        csched_raise_runtime_issue(message)
    }

    static let runtimeIssuesAllowed = !Switch.runtimeIssues.isSet

    /// The test frameworks loaded in this process (`CSCHED_TEST_FRAMEWORK_*` bits, found by mangled
    /// symbols they export); 0 with switch `TEST_FRAMEWORK_PROBE`.
    package static var testFrameworksLoaded: UInt32 {
        Switch.testFrameworkProbe.isSet ? 0 : csched_test_frameworks_loaded()
    }

    /// Whether the toolchain's `Runtime` module may capture and symbolicate stacks (switch
    /// `RUNTIME_BACKTRACE` unset); the fallback is `backtrace(3)` and `dladdr`.
    package static let runtimeBacktraceAllowed = !Switch.runtimeBacktrace.isSet

    /// Whether a stack's inlined frames on Linux come from the library's own DWARF reader
    /// (`InlinedCallSites`, switch `DWARF_READER` unset) rather than from the `Runtime` module's lookup,
    /// which it replaces where that lookup misses nested inlined calls.
    package static let dwarfReaderAllowed = !Switch.dwarfReader.isSet

    // MARK: Swift's executor-check hook (isolation_hooks.c)
    /// Installs the hook once (`CSCHED_ISOLATION_*`: installed, no hook, switched off, self-check failed).
    package static func installIsolationHook(mode: Int32, reporter: csched_isolation_reporter) -> Int32 {
        csched_isolation_hooks_install(reporter, mode)
    }

    /// The installed hook's mode (`CSCHED_ISOLATION_*`), and how many checks reached it.
    package static var isolationHookMode: Int32 { get { csched_isolation_hooks_mode() } set { csched_isolation_hooks_set_mode(newValue) } }
    package static var isolationHookCalls: UInt64 { csched_isolation_hooks_calls() }
}
