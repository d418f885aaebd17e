import Schedulable
import XCTest

/// Fails the current test for each schedule violation `body` causes, and returns what `body` returns.
///
/// What counts as "caused by `body`" is what ``collectConfinementViolations(fileID:line:_:)`` collects:
/// work `body` starts elsewhere must finish before it returns.
///
/// - Parameters:
///   - message: Added to each failure's description.
///   - file: Where to record the failures.
///   - line: Where to record the failures.
///   - body: The code expected to cause no violation.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
@discardableResult
public func XCTAssertNoConfinementViolation<T>(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> T
) rethrows -> T {
    var result: T?
    let violations = try collectConfinementViolations(fileID: "\(file)", line: Int(line)) { result = try body() }
    failForEach(violations, message: message(), file: file, line: line)
    return result!
}

/// Fails the current test for each schedule violation async `body` causes, and returns what `body`
/// returns.
///
/// - Parameters:
///   - message: Added to each failure's description.
///   - file: Where to record the failures.
///   - line: Where to record the failures.
///   - isolation: The caller's isolation, kept for `body`.
///   - body: The code expected to cause no violation.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
@discardableResult
public func XCTAssertNoConfinementViolation<T>(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async rethrows -> T {
    var result: T?
    let violations = try await collectConfinementViolations(fileID: "\(file)", line: Int(line)) {
        result = try await body()
    }
    failForEach(violations, message: message(), file: file, line: line)
    return result!
}

/// Fails the current test unless `body` causes at least one schedule violation, and returns the
/// violations it caused (none of them fails the test).
///
/// - Parameters:
///   - message: Added to the failure's description.
///   - file: Where to record the failure.
///   - line: Where to record the failure.
///   - body: The code expected to cause a violation.
/// - Returns: The violations, in the order they were reported.
/// - Throws: What `body` throws.
@discardableResult
public func XCTAssertConfinementViolation(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Void
) rethrows -> [ConfinementViolation] {
    let violations = try collectConfinementViolations(fileID: "\(file)", line: Int(line), body)
    if violations.isEmpty { failNoViolation(message: message(), file: file, line: line) }
    return violations
}

/// Fails the current test unless async `body` causes at least one schedule violation, and returns the
/// violations it caused.
///
/// - Parameters:
///   - message: Added to the failure's description.
///   - file: Where to record the failure.
///   - line: Where to record the failure.
///   - isolation: The caller's isolation, kept for `body`.
///   - body: The code expected to cause a violation.
/// - Returns: The violations, in the order they were reported.
/// - Throws: What `body` throws.
@discardableResult
public func XCTAssertConfinementViolation(
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [ConfinementViolation] {
    let violations = try await collectConfinementViolations(fileID: "\(file)", line: Int(line), body)
    if violations.isEmpty { failNoViolation(message: message(), file: file, line: line) }
    return violations
}

private func failForEach(_ violations: [ConfinementViolation], message: String, file: StaticString, line: UInt) {
    for violation in violations {
        XCTFail(
            "XCTAssertNoConfinementViolation: " + violation.description + suffix(message),
            file: file, line: line
        )
    }
}

private func failNoViolation(message: String, file: StaticString, line: UInt) {
    XCTFail(
        "XCTAssertConfinementViolation: the body caused no schedule violation" + suffix(message),
        file: file, line: line
    )
}

/// XCTest's own assertions end with " - message" when a message is given.
private func suffix(_ message: String) -> String {
    message.isEmpty ? "" : " - " + message
}
