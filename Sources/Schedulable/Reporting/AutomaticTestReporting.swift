import CSchedulableContext

/// Violations that fail the test that caused them, with no trait, base class or handler in the test:
/// the core's side of it. The core links neither Swift Testing nor XCTest; `SchedulableTesting`,
/// when it is linked into a test binary, installs a ``TestFrameworkBridge`` when that binary loads
/// (before any test runs), and the bridge answers one question: which test is the current code part
/// of? Its answer is a handler bound to that test.
///
/// ## Why a handler bound to a test, captured where work is handed off
/// A violation is detected on the wrong thread by definition — a GCD worker, another test's task —
/// where neither Swift Testing's task-locals nor XCTest's running test say which test caused it. So
/// the test is captured where the library already captures handlers: by an object when it is created
/// (``Confinement`` keeps ``ConfinementSystem/scopedHandler``), by delayed work and futures when they
/// are submitted, and by ``carryingCurrentTest(_:)`` for every event a library scheduler is given.
/// The report then goes to that test, from any thread.
///
/// ## Precedence
/// What the code configured wins over the automatic handler: a handler from
/// ``withConfinementViolationHandler(_:operation:)`` (the SchedulableTesting trait and base class
/// are such scopes), captured by the object or in scope where the violation is raised; then a
/// process-wide configuration — ``ConfinementSystem/bootstrap(_:file:line:)`` or the
/// `SCHEDULABLE_CONFINEMENT` variable — whose ``ConfinementLevel/failTest`` level is what sends a
/// violation to the test. Notes (a `present()` that waited, work cancelled at shutdown) go to the
/// test that caused them too, never failing it, so a green run prints none of them; the precondition
/// tier stops the process after any handler.
package enum AutomaticTestReporting {
    private static let installedBridge = LockedValue<(any TestFrameworkBridge)?>(nil)

    /// The test of the code that handed the running work to a library scheduler (see
    /// ``carryingCurrentTest(_:)``). A task-local, so that it also works on threads without a task
    /// (the runtime keeps those bindings per thread).
    @TaskLocal private static var handedOff: (any AutomaticTestHandler)?

    /// Installs the bridge to the test frameworks; the first one stays. `SchedulableTesting` calls it
    /// when the test binary loads.
    ///
    /// - Parameter bridge: The bridge.
    package static func install(_ bridge: some TestFrameworkBridge) {
        installedBridge.withLock { installed in
            if installed == nil { installed = bridge }
        }
        csched_note_test_bridge_installed()
    }

    /// Whether a bridge is installed: this process links `SchedulableTesting`. One load of a C global
    /// (`csched_handler_sources`, which a record's initializer also tests), the one load a process
    /// without tests pays.
    package static var isInstalled: Bool { csched_test_bridge_installed() }

    /// The handler of the test the calling code is part of: the test that handed the running work to
    /// a library scheduler, else the test whose task (Swift Testing) or run (XCTest) this is. `nil`
    /// outside tests, and always when no bridge is installed.
    package static var current: (any AutomaticTestHandler)? {
        guard isInstalled else { return nil }
        if let handedOff { return handedOff }
        return installedBridge.withLock { $0 }?.handlerForCurrentTest()
    }

    /// The bridge's handler for a violation no test can be told from (``TestFrameworkBridge/handlerOfTheRun()``).
    package static var ofTheRun: (any AutomaticTestHandler)? {
        guard isInstalled else { return nil }
        return installedBridge.withLock { $0 }?.handlerOfTheRun()
    }

    /// Wraps `work` so that it runs as part of the calling code's test, wherever it runs: violations
    /// it raises of objects that captured no test (globals, fixtures) fail that test. Returns `work`
    /// itself outside tests.
    ///
    /// - Parameter work: Work about to be handed to a scheduler.
    /// - Returns: The work to hand over.
    package static func carryingCurrentTest(
        _ work: @escaping @Sendable () -> Void
    ) -> @Sendable () -> Void {
        guard isInstalled, let test = current else { return work }
        return { $handedOff.withValue(test, operation: work) }
    }
}

/// The test frameworks, as the core sees them: implemented by `SchedulableTesting`, which links them.
package protocol TestFrameworkBridge: Sendable {
    /// The handler of the test the calling code runs in, or `nil` outside tests.
    ///
    /// Called where objects are created and work is handed off, so it must be cheap and must not
    /// block.
    func handlerForCurrentTest() -> (any AutomaticTestHandler)?

    /// The handler of a violation that no test can be told from (a GCD worker in a Swift Testing run):
    /// an issue of the run, never a crash; `nil` where the frameworks have none.
    func handlerOfTheRun() -> (any AutomaticTestHandler)?
}

extension TestFrameworkBridge {
    /// No run-level handler.
    package func handlerOfTheRun() -> (any AutomaticTestHandler)? { nil }
}

/// A handler bound to one test: a violation it handles fails that test (or, after the test ended,
/// the run, naming the test).
///
/// ## Implementation requirements
/// The requirements of ``ConfinementViolationHandler``; and `handle(_:)` must record the failure
/// before it returns when the test is still running — or hold it for a recording on the test's own
/// thread when the test ends, where the framework has that hook (XCTest's teardown block) — so that a
/// test that waits for its background work fails deterministically. The violations of one object from
/// one wrong context are one failure (``ConfinementViolationGroup``). A ``ConfinementViolation/Tier/note`` must never fail the test and
/// must not be printed: it is recorded with the test as something less than a failure (a Swift
/// Testing warning), or kept out of the output where the framework has no such thing (XCTest).
package protocol AutomaticTestHandler: ConfinementViolationHandler {}
