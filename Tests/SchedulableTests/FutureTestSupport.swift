import Dispatch
import Testing

@testable import Schedulable

/// Collects the violations and notes of one scope: futures made in it keep the handler, so reports
/// made later on scheduler threads still arrive here.
final class FutureReportLog: Sendable {
    private let reports = LockedValue<[ConfinementViolation]>([])
    /// Called with each report, after it is recorded (on the reporting thread).
    private let onReport: @Sendable (ConfinementViolation) -> Void

    init(onReport: @escaping @Sendable (ConfinementViolation) -> Void = { _ in }) {
        self.onReport = onReport
    }

    var handler: CustomViolationHandler {
        CustomViolationHandler { report in
            self.reports.withLock { $0.append(report) }
            self.onReport(report)
        }
    }

    var all: [ConfinementViolation] { reports.withLock { $0 } }

    func count(of kind: ConfinementViolation.Kind) -> Int {
        all.filter { $0.kind == kind }.count
    }
}

/// A value written once on one thread and read on another after a semaphore or a join orders them.
final class Slot<Value: Sendable>: Sendable {
    private let value = LockedValue<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    var get: Value? { value.withLock { $0 } }
}

/// State that only the scheduler under test touches (its exclusion keeps it consistent, and
/// ThreadSanitizer would flag an overlap).
final class OwnerConfined<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

struct TestFailure: Error, Equatable {
    var code = 0
}

extension Error {
    /// The reason, when this is a ``FutureError``.
    var futureReason: FutureError.Reason? { (self as? FutureError)?.reason }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends an exit test's child process with `code`.
func exitProcess(_ code: Int32) -> Never {
    exit(code)
}

/// For suites whose tests wait for futures that may not be done yet, or stop schedulers with delayed
/// work pending, on purpose: the notes that causes (``ConfinementViolation/Kind/waitingRequired``,
/// ``ConfinementViolation/Kind/cancelledAtShutdown``) are expected, so they are claimed here instead
/// of becoming warnings of the test (which Swift Testing prints). Anything that is not a note still
/// goes to the test, and fails it.
struct ExpectsNotesTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let claimer = NoteClaimer(test: AutomaticTestReporting.current)
        try await withConfinementViolationHandler(claimer, operation: function)
    }

    /// Drops notes; hands everything else to the test the scope runs in (else the process-wide handler).
    private struct NoteClaimer: ConfinementViolationHandler {
        let test: (any AutomaticTestHandler)?
        func handle(_ violation: ConfinementViolation) {
            if violation.tier == .note { return }
            (test ?? ConfinementSystem.handler).handle(violation)
        }
    }
}

extension Trait where Self == ExpectsNotesTrait {
    /// The suite's tests cause notes on purpose (see ``ExpectsNotesTrait``).
    static var expectsNotes: Self { ExpectsNotesTrait() }
}
