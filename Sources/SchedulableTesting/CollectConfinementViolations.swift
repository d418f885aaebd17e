import Schedulable

/// Runs `body` and returns the violations it caused, instead of reporting them.
///
/// Collected: every violation raised while `body` runs on the calling task, every violation of an
/// object created inside `body` (from any thread), and — when called inside a test that uses
/// `.confinementChecked` (``ConfinementCheckedTrait``) or ``ConfinementCheckedTestCase`` — every
/// violation of that test's objects detected on another thread while `body` runs.
///
/// Work that `body` starts on other threads must finish before `body` returns: a violation that
/// arrives later is not in the result. It goes to the enclosing handler (the test's, or the
/// process-wide one, with a note on standard error), so it is never lost.
///
/// Precondition-tier violations (`preconditionIsolated()`, `SchedulerBound`) still stop the process,
/// after printing the report: test those with an exit test. Notes (a `present()` that had to wait) are
/// not violations and are not collected: they go to the test the call runs in, as a warning.
///
/// ```swift
/// let violations = collectConfinementViolations {
///     let done = DispatchSemaphore(value: 0)
///     DispatchQueue.global().async { service.pending.append(photo); done.signal() }
///     done.wait()
/// }
/// #expect(violations.map(\.member) == ["pending"])
/// ```
///
/// - Parameters:
///   - fileID: The call site, named in notes about late violations.
///   - line: The call site, named in notes about late violations.
///   - body: The code to run.
/// - Returns: The violations, in the order they were reported.
/// - Throws: What `body` throws. The violations it caused before throwing go to the enclosing handler.
public func collectConfinementViolations(
    fileID: String = #fileID, line: Int = #line, _ body: () throws -> Void
) rethrows -> [ConfinementViolation] {
    let collector = makeHelperCollector(named: "collectConfinementViolations", fileID: fileID, line: line)
    do {
        try collector.withScope(body)
    } catch {
        collector.finish().forEach(collector.reportLate)
        throw error
    }
    return collector.finish()
}

/// Runs async `body` and returns the violations it caused, instead of reporting them.
///
/// The async form of the synchronous `collectConfinementViolations(fileID:line:_:)`, which documents
/// what is collected.
///
/// - Parameters:
///   - isolation: The caller's isolation, kept for `body`.
///   - fileID: The call site, named in notes about late violations.
///   - line: The call site, named in notes about late violations.
///   - body: The code to run.
/// - Returns: The violations, in the order they were reported.
/// - Throws: What `body` throws. The violations it caused before throwing go to the enclosing handler.
public func collectConfinementViolations(
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ body: () async throws -> Void
) async rethrows -> [ConfinementViolation] {
    let collector = makeHelperCollector(named: "collectConfinementViolations", fileID: fileID, line: line)
    do {
        try await collector.withScope(body)
    } catch {
        collector.finish().forEach(collector.reportLate)
        throw error
    }
    return collector.finish()
}

/// A collector for a helper's body, nested in the current scope. Its late violations go to the handler
/// that was in scope when the helper started — a test's collector makes them that test's failures —
/// or, outside any scope, to the process-wide handler after a note on standard error.
func makeHelperCollector(named helper: String, fileID: String, line: Int) -> ConfinementViolationCollector {
    let description = "\(helper) at \(fileID):\(line)"
    let enclosing = ConfinementSystem.scopedHandler
    return ConfinementViolationCollector(
        scopeDescription: description,
        isHelper: true,
        reportLate: { violation in
            forward(violation, to: enclosing, lateFrom: description)
        }
    )
}

private func forward(
    _ violation: ConfinementViolation, to enclosing: (any ConfinementViolationHandler)?, lateFrom scope: String
) {
    if let collector = enclosing as? ConfinementViolationCollector {
        collector.receive(violation, allowsDelegation: false)
    } else if let enclosing {
        enclosing.handle(violation)
    } else {
        StandardError.write(
            "Schedulable: a violation is not in the result of \(scope) (it arrived after the helper "
                + "returned, or the body threw); passing it to the process-wide handler\n"
        )
        ConfinementSystem.handler.handle(violation)
    }
}
