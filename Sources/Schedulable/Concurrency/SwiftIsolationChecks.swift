import CSchedulableContext

/// What happens when one of Swift's own dynamic isolation checks (SE-0423) fails: code isolated to the
/// main actor or to an actor — an isolated closure's entry, a `@preconcurrency` witness,
/// `assumeIsolated`, `preconditionIsolated` — runs outside it, where the Swift runtime traps.
///
/// In a test binary that links SchedulableTesting the level is ``report`` from the start (``trap``
/// inside an exit test's child process); elsewhere it is ``off`` unless the program opts in with
/// ``ConfinementSystem/reportSwiftIsolationChecks(_:)``. The `SCHEDULABLE_ISOLATION_CHECKS` variable
/// (`off`, `report`, `trap`) wins over both. Release builds of the library never change the runtime.
public enum IsolationCheckLevel: String, Sendable, CaseIterable {
    /// The runtime is left untouched: a failed check traps, as without the library.
    case off
    /// A failed check is reported like a confinement violation (a test failure at its line in tests,
    /// through the process-wide handler elsewhere), and the code goes on running.
    case report
    /// A failed check is reported, then the runtime traps as it would have.
    case trap
}

extension ConfinementSystem {
    /// Turns Swift's failed isolation checks into reports in this process (an app's debug run: walk its
    /// screens and collect every site, in the JSON Lines file too, before a module moves to Swift 6).
    /// Never the default outside tests. Does nothing in a release build of the library, where a trap
    /// stays a trap, and prints one line where the runtime has no hook to install (before the Swift 6.0
    /// runtime: macOS 15, iOS 18).
    ///
    /// - Parameter level: ``IsolationCheckLevel/report`` (the default), ``IsolationCheckLevel/trap``
    ///   (report, then let the runtime trap) or ``IsolationCheckLevel/off``.
    public static func reportSwiftIsolationChecks(_ level: IsolationCheckLevel = .report) {
        SwiftIsolationHook.apply(SwiftIsolationHook.environmentLevel ?? level)
    }
}

/// The core's side of the runtime hook in `isolation_hooks.c`: the level, the report, delivery.
package enum SwiftIsolationHook {
    /// The variable that sets the level in any process.
    package static let environmentVariable = "SCHEDULABLE_ISOLATION_CHECKS"

    /// The level the environment sets, if it names one (a wrong value is said once, and ignored).
    static var environmentLevel: IsolationCheckLevel? {
        guard let value = StandardError.environmentValue(environmentVariable) else { return nil }
        if let level = IsolationCheckLevel(rawValue: value) { return level }
        StandardError.write("Schedulable: \(environmentVariable)=\(value) is not off, report or trap; ignored\n")
        return nil
    }

    /// Called once when a test binary that links SchedulableTesting loads: ``IsolationCheckLevel/report``,
    /// ``IsolationCheckLevel/trap`` in an exit test's child (a test that expects the runtime's trap gets
    /// it), unless the environment says otherwise.
    package static func installForTests() {
        let inExitTest = StandardError.environmentValue("SWT_EXIT_TEST_ID") != nil
        apply(environmentLevel ?? (inExitTest ? .trap : .report))
    }

    /// Sets `level`, installing the hook the first time it is not ``IsolationCheckLevel/off``.
    static func apply(_ level: IsolationCheckLevel) {
        #if SCHEDULABLE_DEBUG_BUILD
        let mode = switch level {
        case .off: CSCHED_ISOLATION_OFF
        case .report: CSCHED_ISOLATION_REPORT
        case .trap: CSCHED_ISOLATION_TRAP
        }
        guard level != .off || installed.withLock({ $0 }) else { return }
        let result = PlatformInternals.installIsolationHook(mode: mode, reporter: { expected, identity in
            SwiftIsolationHook.report(expected: expected, identity: identity)
        })
        PlatformInternals.isolationHookMode = mode
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        switch result {
        case CSCHED_ISOLATION_NO_HOOK:
            StandardError.write("Schedulable: Swift isolation checks stay traps: this Swift runtime exports no "
                + "swift_task_checkIsolated_hook (the Swift 6.0 runtime is the first: macOS 15, iOS 18)\n")
        case CSCHED_ISOLATION_SELF_CHECK_FAILED:
            StandardError.write("Schedulable: Swift isolation checks stay traps: this Swift runtime's checks do "
                + "not reach its hook as the Swift 6.3 runtime's do (self-check failed)\n")
        default: break
        }
        #endif
    }

    private static let installed = LockedValue(false)
    private static let appLog = LogViolationHandler()

    /// Whether the hook is installed and reporting (for tests).
    package static var isReporting: Bool { PlatformInternals.isolationHookMode != CSCHED_ISOLATION_OFF }

    /// The sites already reported to each test's handler, with how many times each failed since.
    private static let sites = LockedValue<[SiteOfTest: Int]>([:])

    private struct SiteOfTest: Hashable {
        var handler: ObjectIdentifier
        var site: AnyHashable?
    }

    /// How many failed checks were folded into an earlier report of the same site in the same test.
    package static var repeats: Int { sites.withLock { $0.values.reduce(0, +) } }

    /// On the violating thread, inside the runtime's check: the report, delivered like a confinement
    /// violation's. One failure per site per test: the runtime checks one closure several times (a
    /// witness, then `assumeIsolated` inside it), and a loop fails at every turn; repeats are counted.
    static func report(expected: Int32, identity: UnsafeRawPointer?) {
        let owner = expected == CSCHED_ISOLATION_EXPECTED_ACTOR ? identity.map(actorDescription) : "MainActor"
        let violation = ConfinementViolation.isolationCheck(expectedOwner: owner ?? "an actor")
        // The runtime traps next: nothing a test would record later survives, so the report goes to
        // standard error (and the JSON Lines file) now, in order after the reports being written.
        if PlatformInternals.isolationHookMode == CSCHED_ISOLATION_TRAP {
            JSONLinesViolationHandler.process?.append(violation, level: .trap)
            StandardError.write(ConfinementReporting.reportBeforeTrap(violation))
            return
        }
        var handler = ConfinementReporting.handler(for: violation, objectHandler: nil)
        // In a test process, a check no test can be told from is an issue of the run, not the default
        // handler's trap: the run goes on.
        if !(handler is any AutomaticTestHandler), !ConfinementSystem.isExplicitlyConfigured,
            ConfinementSystem.explicitScopedHandler == nil, let run = AutomaticTestReporting.ofTheRun
        {
            handler = run
        } else if !(handler is any AutomaticTestHandler), !ConfinementSystem.isExplicitlyConfigured {
            // An app's debug run that opted in collects sites: printed once per site, never trapped on by
            // the build's default handler (the point of the opt-in is that the run goes on).
            handler = appLog
        }
        if let test = handler as? any AutomaticTestHandler {
            let key = SiteOfTest(handler: ObjectIdentifier(test as AnyObject), site: violation.accessSiteKey)
            let isNew = sites.withLock { sites in
                guard let count = sites[key] else {
                    sites[key] = 0
                    return true
                }
                sites[key] = count + 1
                return false
            }
            guard isNew else { return }
        }
        Delivery.deliver(violation, to: handler)
    }

    /// `actor App.Store`: the actor's type, named as `String(reflecting:)` names it.
    private static func actorDescription(_ identity: UnsafeRawPointer) -> String {
        let actor = Unmanaged<AnyObject>.fromOpaque(identity).takeUnretainedValue()
        return "actor \(String(reflecting: type(of: actor)))"
    }
}
