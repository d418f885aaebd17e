import Dispatch
import Schedulable
import Testing

/// A `confinement` that is computed gives a new record on every read: without detection every check
/// would pass on any thread (each new record is "being built" by the thread that reads it).
@Suite("Confinement records that are not stored")
struct UnstoredConfinementTests {
    static let repetitions = 200

    final class ComputedRecord: ConfinedObject, @unchecked Sendable {
        let owner: SerialQueueScheduler
        var confinement: Confinement { Confinement(owner: owner) }
        init(owner: SerialQueueScheduler) { self.owner = owner }
        func ping() { assertIsolated() }
    }

    final class ComputedDetachedRecord: ConfinedObject, @unchecked Sendable {
        var confinement: Confinement { .detached() }
        func ping() { assertIsolated() }
    }

    final class StoredRecord: ConfinedObject, @unchecked Sendable {
        let confinement: Confinement
        init(owner: SerialQueueScheduler) { confinement = Confinement(owner: owner) }
        func ping() { assertIsolated() }
    }

    /// Off the owner: the type is reported once, and every access is reported as outside the owner
    /// (200 of 200); on the owner nothing is reported.
    @Test func aComputedRecordIsReportedAndItsAccessesJudgedAgainstTheOwner() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.unstored.owner")
        let elsewhere = DispatchQueue(label: "test.unstored.elsewhere")
        let object = ComputedRecord(owner: owner)
        withConfinementViolationHandler(recorder) {
            for _ in 0..<Self.repetitions {
                owner.sync { object.ping() }
                elsewhere.sync { object.ping() }
            }
        }
        let kinds = recorder.violations.map(\.kind)
        #expect(kinds.filter { $0 == .unstoredConfinement }.count == expectedDebugTier(1))
        #expect(kinds.filter { $0 == .wrongContext }.count == expectedDebugTier(Self.repetitions))
        #expect(kinds.count == expectedDebugTier(Self.repetitions + 1))
        if let report = recorder.violations.first(where: { $0.kind == .unstoredConfinement }) {
            #expect(report.description.contains("ComputedRecord does not store its confinement record"))
            #expect(report.member == "ping()")
        }
    }

    /// A computed detached record binds wherever it is read: the type is still reported, once.
    @Test func aComputedDetachedRecordIsReportedOnce() {
        let recorder = ViolationRecorder()
        let object = ComputedDetachedRecord()
        withConfinementViolationHandler(recorder) {
            for _ in 0..<Self.repetitions { DispatchQueue(label: "test.unstored.detached").sync { object.ping() } }
        }
        #expect(recorder.violations.map(\.kind) == Array(repeating: .unstoredConfinement, count: expectedDebugTier(1)))
    }

    /// A stored record is never mistaken for an unstored one, in its construction window or after.
    @Test func aStoredRecordIsNotReported() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.unstored.stored")
        withConfinementViolationHandler(recorder) {
            for _ in 0..<Self.repetitions {
                let object = StoredRecord(owner: owner)
                object.ping()                    // construction window, on the creating thread
                owner.sync { object.ping() }
            }
        }
        #expect(recorder.count == 0)
    }

    /// The kind's name changed, its raw value did not: a JSON Lines reader of schema 2 sees no change.
    @Test func theRenamedKindKeepsItsRawValue() {
        #expect(ConfinementViolation.Kind.unstoredConfinement.rawValue == "unstoredProtection")
    }
}
