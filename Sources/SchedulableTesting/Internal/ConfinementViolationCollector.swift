import Schedulable

/// The handler behind every test helper: it owns one scope (a test, or a helper's body), collects the
/// violations that belong to that scope, and routes the rest.
///
/// ## Why this shape
/// A violation is detected on the *wrong* thread by definition, usually a GCD worker where no
/// task-local value of the test is visible. The only thing that reliably travels there is the handler
/// a protected object captured when it was created (``Confinement`` keeps
/// `ConfinementSystem.scopedHandler`). So each scope installs its own collector as the scoped
/// handler: objects created in the scope report to it from any thread, it buffers what it cannot report
/// in place, and the scope reports the buffer from its own task when it ends. A violation that
/// arrives after that is *late*: it goes to `reportLate`, never into a buffer nobody reads.
///
/// Scopes nest: a helper that runs inside a test claims the violations that happen while its body
/// runs, including those of objects the test created earlier.
package final class ConfinementViolationCollector: ConfinementViolationHandler {
    /// The collector whose scope the current task (or thread, outside tasks) runs in. Task-local, so it
    /// follows child tasks and `Task {}` but not GCD: on a GCD thread it is `nil`.
    @TaskLocal package static var current: ConfinementViolationCollector?

    /// Names the scope in notes: "test `upload()` at App/UploadTests.swift:12".
    let scopeDescription: String

    /// The collector this scope is nested in, if any (the one that was current when it started).
    package let parent: ConfinementViolationCollector?

    /// The test the scope runs in (its automatic handler), which receives the scope's notes.
    private let test: (any AutomaticTestHandler)?

    /// The Swift Testing test case the scope runs in, if any: what "the test's task tree" is measured
    /// against (``IntruderTestTree``).
    private let testCase: TestCaseKey?

    /// Reports a violation that arrived after the scope ended (or that the scope will not report).
    let reportLate: @Sendable (ConfinementViolation) -> Void

    /// Whether the scope is a helper's body run directly in a test (no scope around it): then it also
    /// claims the test's violations detected off every task while it runs (``RunningHelpers``).
    private let claimsTheTestsOffTaskViolations: Bool

    private struct State: Sendable {
        var isRunning = true
        /// Each collected violation, with whether it was detected off the scope's own task.
        var collected: [HeldViolation] = []
        /// Nested scopes that are running now, innermost last.
        var activeChildren: [ConfinementViolationCollector] = []
    }

    // Core's pthread-based lock, not `Synchronization.Mutex`: this lock is contended by design (GCD
    // threads report while the test's task collects), and ThreadSanitizer cannot see a contended Mutex
    // on Linux, so users running their tests under it would get false reports.
    private let state = LockedValue(State())

    /// Creates a collector nested in the current one (if any). Start its scope with ``withScope(_:)``.
    ///
    /// - Parameters:
    ///   - scopeDescription: Names the scope in notes.
    ///   - isHelper: Whether the scope is a helper's body (not a test's own scope).
    ///   - reportLate: Reports violations that arrive after ``finish()``.
    package init(
        scopeDescription: String,
        isHelper: Bool = false,
        reportLate: @escaping @Sendable (ConfinementViolation) -> Void
    ) {
        self.scopeDescription = scopeDescription
        self.parent = Self.current
        self.test = AutomaticTestReporting.current
        self.testCase = TestCaseKey.current
        self.reportLate = reportLate
        claimsTheTestsOffTaskViolations = isHelper && parent == nil && test != nil
        parent?.state.withLock { $0.activeChildren.append(self) }
        if claimsTheTestsOffTaskViolations, let test { RunningHelpers.started(self, in: test) }
    }

    /// Whether the scope is still running.
    package var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Runs `body` as this collector's scope: objects created in it capture the collector, and
    /// violations raised in it (on its task) reach the collector.
    ///
    /// - Parameter body: The scope.
    /// - Returns: What `body` returns.
    package func withScope<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$current.withValue(self) {
            try withConfinementViolationHandler(self, operation: body)
        }
    }

    /// Runs async `body` as this collector's scope.
    ///
    /// - Parameter body: The scope.
    /// - Returns: What `body` returns.
    package func withScope<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await Self.$current.withValue(self) {
            try await withConfinementViolationHandler(self, operation: body)
        }
    }

    /// Ends the scope: from now on violations go to `reportLate`.
    ///
    /// - Returns: The violations collected while the scope ran, in the order they were reported.
    package func finish() -> [ConfinementViolation] {
        finishNotingWhere().map(\.violation)
    }

    /// Ends the scope, like ``finish()``.
    ///
    /// - Returns: The violations collected while the scope ran, in the order they were reported, each
    ///   with whether it was detected off the scope's own task and where it ran relative to the test.
    package func finishNotingWhere() -> [HeldViolation] {
        let collected = state.withLock { state -> [HeldViolation] in
            state.isRunning = false
            return state.collected
        }
        parent?.state.withLock { $0.activeChildren.removeAll { $0 === self } }
        if claimsTheTestsOffTaskViolations, let test { RunningHelpers.finished(self, in: test) }
        return collected
    }

    package func handle(_ violation: ConfinementViolation) {
        // A note (a future that had to be waited for) reports nothing wrong, so it must not become a
        // test failure or a collected violation: it goes to the test the scope runs in, which keeps it
        // as a warning, and only outside tests to the process-wide handler.
        if violation.tier == .note {
            (test ?? ConfinementSystem.handler).handle(violation)
            return
        }
        receive(violation, allowsDelegation: true)
    }

    /// Routes one violation.
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - allowsDelegation: Whether a running nested scope may claim it. A violation forwarded late
    ///     from a finished child happened after that child's body, so no other child may claim it.
    package func receive(_ violation: ConfinementViolation, allowsDelegation: Bool) {
        if violation.tier == .precondition {
            StandardError.write(AlwaysOnTierNote.text(for: violation, in: scopeDescription))
        }
        let here = Self.current
        // A helper running on the task that detected the violation claims it: its body is what the
        // user is asserting on.
        if allowsDelegation, let here, here !== self, here.isNested(in: self), here.isRunning {
            here.receive(violation, allowsDelegation: true)
            return
        }
        enum Route {
            case collected
            case child(ConfinementViolationCollector)
            case late
        }
        // Read on the violating thread (the handler runs there), outside the lock.
        let tree = IntruderTestTree.here(for: violation, recording: testCase)
        let route = state.withLock { state -> Route in
            guard state.isRunning else { return .late }
            // Detected off every task (a GCD thread) while a helper of this scope runs: the helper's
            // body is what is running, so the violation is the helper's.
            if allowsDelegation, here == nil, let child = state.activeChildren.last { return .child(child) }
            state.collected.append(HeldViolation(violation, elsewhere: here !== self, intruderTree: tree))
            return .collected
        }
        switch route {
        case .collected: break
        case .child(let child): child.receive(violation, allowsDelegation: true)
        case .late: reportLate(violation)
        }
    }

    private func isNested(in ancestor: ConfinementViolationCollector) -> Bool {
        var next = parent
        while let candidate = next {
            if candidate === ancestor { return true }
            next = candidate.parent
        }
        return false
    }
}
