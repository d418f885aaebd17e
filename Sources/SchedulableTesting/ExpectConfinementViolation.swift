import Schedulable
import Testing

/// Expects `body` to cause at least one schedule violation, and returns the violations it caused (none of
/// them is reported as an issue).
///
/// Records an issue at the call site when there is none.
///
/// For testing your own guards:
///
/// ```swift
/// @Test func pendingIsGuarded() {
///     let service = UploadService(owner: uploads)
///     let violations = expectConfinementViolation {
///         let done = DispatchSemaphore(value: 0)
///         DispatchQueue.global().async { service.pending.append(photo); done.signal() }
///         done.wait()
///     }
///     #expect(violations.first?.expectedOwner == uploads.label)
/// }
/// ```
///
/// What counts as "caused by `body`" is what ``collectConfinementViolations(fileID:line:_:)`` collects:
/// work `body` starts elsewhere must finish before it returns.
///
/// - Parameters:
///   - comment: A comment for the issue recorded when there is no violation.
///   - sourceLocation: Where to record that issue.
///   - body: The code expected to cause a violation.
/// - Returns: The violations, in the order they were reported.
/// - Throws: What `body` throws.
@discardableResult
public func expectConfinementViolation(
    _ comment: Comment? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    performing body: () throws -> Void
) rethrows -> [ConfinementViolation] {
    let violations = try collectConfinementViolations(
        fileID: sourceLocation.fileID, line: sourceLocation.line, body
    )
    if violations.isEmpty {
        TestIssueRecording.record(noViolationComment(comment), at: sourceLocation)
    }
    return violations
}

/// Expects async `body` to cause at least one schedule violation, and returns the violations it caused.
///
/// Records an issue at the call site when there is none.
///
/// - Parameters:
///   - comment: A comment for the issue recorded when there is no violation.
///   - isolation: The caller's isolation, kept for `body`.
///   - sourceLocation: Where to record that issue.
///   - body: The code expected to cause a violation.
/// - Returns: The violations, in the order they were reported.
/// - Throws: What `body` throws.
@discardableResult
public func expectConfinementViolation(
    _ comment: Comment? = nil,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    performing body: () async throws -> Void
) async rethrows -> [ConfinementViolation] {
    let violations = try await collectConfinementViolations(
        fileID: sourceLocation.fileID, line: sourceLocation.line, body
    )
    if violations.isEmpty {
        TestIssueRecording.record(noViolationComment(comment), at: sourceLocation)
    }
    return violations
}

private func noViolationComment(_ comment: Comment?) -> String {
    let base = "Expected a schedule violation, but the body caused none"
    guard let comment else { return base }
    return base + ": " + comment.rawValue
}
