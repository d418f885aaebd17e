import Dispatch
import IsolationPlainSwift5
import IsolationPreviewSwift5
import IsolationShapesLegacy
import Schedulable
@testable import SchedulableTesting
import XCTest

/// Swift 6's isolation checks in XCTest, with no base class: each shape is one failure of the running
/// test at its line, recorded by the automatic handler at the end of the test method (captured by
/// `recordFailure`, checked in `tearDown`), and the run goes on.
final class IsolationCheckXCTests: XCTestCase {
    private var recorded: [RecordedFailure] = []
    private var expected: (shape: String, expectedOwner: String, check: String)?
    private var expectsSilence = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if self.expected != nil || expectsSilence, description.contains("Swift isolation check failed") {
            recorded.append(RecordedFailure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    override func tearDown() {
        if let expected {
            XCTAssertEqual(recorded.count, 1, recorded.map(\.description).joined(separator: "\n---\n"))
            for failure in recorded {
                XCTAssertTrue(failure.file.hasSuffix("Support/IsolationShapes.swift"), failure.file)
                XCTAssertEqual(failure.line, isolationShapeLine(expected.shape), failure.description)
                XCTAssertTrue(failure.description.contains("outside \(expected.expectedOwner)"), failure.description)
                XCTAssertTrue(failure.description.contains("\(expected.check) outside"), failure.description)
                XCTAssertTrue(failure.description.contains("the Swift runtime stops the process here"), failure.description)
            }
        }
        if expectsSilence { XCTAssertEqual(recorded.map(\.description), []) }
        super.tearDown()
    }

    private func expect(_ shape: String, outside owner: String = "MainActor", check: ConfinementViolation.IsolationCheck) throws {
        try XCTSkipUnless(SwiftIsolationHook.isReporting, "Swift's isolation checks are the runtime's traps in this build")
        expected = (shape, owner, check.rawValue)
    }

    func testAMainActorClosureCalledBackOnAGlobalQueueIsOneFailure() async throws {
        try expect("reload", check: .entry)
        let model = ProfileViewModel()
        await model.reload()
    }

    func testAssumeIsolatedInACompletionIsOneFailure() throws {
        try expect("assume", check: .assumeIsolated)
        ProfileViewModel.reloadAssumingFromAnywhere()
    }

    func testPreconditionIsolatedInACompletionIsOneFailure() throws {
        try expect("precondition", check: .preconditionIsolated)
        ProfileViewModel.reloadCheckingFromAnywhere()
    }

    /// Eight checks at once on several threads, 200 times: one failure, every time.
    func testAClosureRunInParallelIsOneFailure() async throws {
        try expect("parallel", check: .entry)
        let model = ProfileViewModel()
        for _ in 0..<200 { await model.renderTiles() }
    }

    func testAnActorsClosureCalledBackElsewhereIsOneFailure() async throws {
        try expect("actor", outside: "actor SchedulableTestingTests.CredentialStore", check: .entry)
        await CredentialStore().refresh()
    }

    func testAPreconcurrencyWitnessCalledOnAnotherQueueIsOneFailure() async throws {
        try expect("witness", check: .witness)
        let screen = SettingsScreen()
        let notifier = LegacyNotifier()
        notifier.delegate = screen
        notifier.finish()
    }
}

/// The migration preview: a Swift 5-mode module built with `DynamicActorIsolation` fails its test where
/// Swift 6 mode would trap; the same module without the feature has no check to fail.
final class IsolationPreviewXCTests: XCTestCase {
    private var recorded: [RecordedFailure] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing, description.contains("Swift isolation check failed") {
            recorded.append(RecordedFailure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private var expectedLine: Int?

    override func tearDown() {
        if let expectedLine {
            XCTAssertEqual(recorded.map(\.line), [expectedLine], recorded.map(\.description).joined(separator: "\n---\n"))
            XCTAssertTrue(recorded.allSatisfy { $0.file.hasSuffix("IsolationPreviewSwift5/PreviewViewModel.swift") })
        } else if capturing {
            XCTAssertEqual(recorded.map(\.description), [])
        }
        super.tearDown()
    }

    func testASwift5ModuleWithTheUpcomingFeatureFailsWhereSwift6WouldTrap() async throws {
        try XCTSkipUnless(SwiftIsolationHook.isReporting, "Swift's isolation checks are the runtime's traps in this build")
        capturing = true
        expectedLine = PreviewViewModel.reloadLine
        await PreviewViewModel().reload()
    }

    func testTheSameModuleWithoutTheFeatureHasNoCheck() async throws {
        try XCTSkipUnless(SwiftIsolationHook.isReporting, "Swift's isolation checks are the runtime's traps in this build")
        capturing = true
        let before = PlatformInternals.isolationHookCalls
        await PlainSwift5ViewModel().reload()
        XCTAssertEqual(PlatformInternals.isolationHookCalls, before)
    }
}
