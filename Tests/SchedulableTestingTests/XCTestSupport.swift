import XCTest

/// A failure as XCTest records it.
struct RecordedFailure: Equatable, CustomStringConvertible {
    var description: String
    var file: String
    var line: Int
}

/// Captures the failures recorded on this test case while ``expectFailures(_:)`` runs, so a test can
/// assert exactly which failures an assertion helper records. swift-corelibs-xctest (Linux) has no
/// `XCTExpectFailure`; XCTest's assertions all end in `recordFailure` on the current test case, so
/// overriding it is the exact hook.
class FailureCapturingTestCase: XCTestCase {
    private var captured: [RecordedFailure]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if captured != nil {
            captured!.append(RecordedFailure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// Runs `body` and returns the failures it recorded, instead of failing this test with them.
    func expectFailures(_ body: () throws -> Void) rethrows -> [RecordedFailure] {
        captured = []
        defer { captured = nil }
        try body()
        return captured!
    }

    /// Runs async `body` and returns the failures it recorded, instead of failing this test with them.
    func expectFailures(_ body: () async throws -> Void) async rethrows -> [RecordedFailure] {
        captured = []
        defer { captured = nil }
        try await body()
        return captured!
    }
}
