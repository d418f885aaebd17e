import Dispatch
import Testing

@testable import Schedulable

/// Collects the violations and notes of one scope: futures made in it keep the handler, so reports
/// made later on scheduler threads still arrive here.
final class FutureReportLog: Sendable {
    private let reports = ScheduleLock<[ConfinementViolation]>([])
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
    private let value = ScheduleLock<Value?>(nil)
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
