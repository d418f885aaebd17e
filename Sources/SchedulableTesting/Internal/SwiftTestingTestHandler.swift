import Dispatch
import Schedulable
import Testing

/// The automatic handler of one Swift Testing test case: a violation of the test's objects (or of
/// work the test handed off) becomes an issue of that test case, from any thread, with no trait.
///
/// - Detected on the test case's own task: recorded there, at once, so `withKnownIssue` around the
///   offending code sees it.
/// - Detected anywhere else (a GCD thread, a scheduler's thread, another test's task): recorded by a
///   task that this handler created on the test case's task, so it carries that test case's
///   task-locals, and that runs its step synchronously on the detecting thread
///   (``InlineTaskExecutor``). The issue is on the right test case before the detecting code goes on,
///   so a test that waits for its background work fails deterministically, and no other test running
///   in parallel does (swift-testing issue #480 is why `Issue.record` alone cannot do this).
/// - Detected after the test case ended: recorded the same way; Swift Testing lists it as an issue of
///   that test after its result and fails the run.
///
/// One bug, one failure: without the trait nothing runs when the test case ends, so a failure cannot
/// wait for the rest of its group. The first violation of an object from a wrong context is the
/// failure, recorded at once at its failure site (for a method guard, the line that called it); each
/// later member or site of the same object from the same context is a warning naming that access and
/// the failure (once per member and site), never a second failure. ``ConfinementCheckedTrait``
/// records at the end instead, one issue listing every access.
///
/// Known limit: the delivering task inherits *every* task-local of the code that made the test case's
/// first capture (its first protected object or hand-off). If that code ran inside `withKnownIssue`,
/// off-task violations of the test case count as known issues; create the first object outside it.
final class SwiftTestingTestHandler: AutomaticTestHandler {
    /// One handler per test case: a parameterized test's cases run in parallel and fail separately.
    private typealias Key = TestCaseKey

    private static let handlers = LockedValue<[Key: SwiftTestingTestHandler]>([:])

    /// The handler of the test case the calling task runs in, made on first use; `nil` off every test.
    static func forCurrentTestCase() -> SwiftTestingTestHandler? {
        // Called at every capture in a test process (each protected object and hand-off): one read of
        // Test.current (about 0.1–0.5 µs in a debug build, with its ID) and one dictionary lookup.
        guard let test = Test.current else { return nil }
        let key = TestCaseKey(current: test)
        if let existing = handlers.withLock({ $0[key] }) { return existing }
        // Made outside the lock: it starts a task. A race makes two; the first one stored wins.
        let made = SwiftTestingTestHandler(key: key, test: test)
        return handlers.withLock { handlers in
            if let existing = handlers[key] { return existing }
            handlers[key] = made
            return made
        }
    }

    private let key: Key
    private let testName: String
    fileprivate let testLocation: Testing.SourceLocation
    private let delivery: (any OffTaskDelivery)?

    private struct NotedSite: Hashable {
        var kind: ConfinementViolation.Kind
        var member: String
        var callSite: CodeLocation?
    }

    /// The notes already recorded on this test case.
    private let notedSites = LockedValue<Set<NotedSite>>([])

    /// An access folded into a failure recorded before: the group, the member and its site.
    fileprivate struct FoldedAccess: Hashable {
        var group: ConfinementViolationGroup.Key
        var member: String
        var site: AnyHashable?
    }

    /// The groups whose failure is recorded, with where it points; the accesses folded into them.
    fileprivate let failures = LockedValue<(groups: [ConfinementViolationGroup.Key: Testing.SourceLocation], folded: Set<FoldedAccess>)>(([:], []))

    private init(key: Key, test: Test) {
        self.key = key
        self.testName = test.name
        self.testLocation = test.sourceLocation
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            delivery = InlineDelivery()
        } else {
            delivery = nil
        }
    }

    func handle(_ violation: ConfinementViolation) {
        // A helper running in this test claims what reaches the test off every task (RunningHelpers).
        if violation.tier != .note, let helper = RunningHelpers.claimant(for: self) {
            return helper.receive(violation, allowsDelegation: true)
        }
        if violation.tier == .precondition {
            StandardError.write(AlwaysOnTierNote.text(for: violation, in: "test \(testName)"))
        }
        // A note reports nothing wrong: a warning of the test, never a failure, never the console;
        // one per call site and kind, as the log handler prints it (a loop that waits a thousand
        // times is one thing to know).
        if violation.tier == .note {
            let site = NotedSite(kind: violation.kind, member: violation.qualifiedMember, callSite: violation.callSite)
            guard notedSites.withLock({ $0.insert(site).inserted }) else { return }
        }
        let onItsTask = Key.current == key
        guard let (text, severity, location) = issue(for: violation, onTheTestsTask: onItsTask) else { return }
        // Read here, on the violating thread: the handler runs there.
        let report = IntruderTestTree.appending(IntruderTestTree.here(for: violation, recording: key), to: text)
        if onItsTask {
            TestIssueRecording.record(report, severity: severity, at: location)
            return
        }
        let comment = report + "\n  detected:        off the test's task (test \(testName))"
        if let delivery {
            delivery.record(comment, severity: severity, at: location)
        } else {
            // Before the OS versions with task executors: an issue of no test, which fails the run and
            // names the test (a note: a warning of no test).
            DispatchQueue.global().async {
                TestIssueRecording.record(comment, severity: severity, at: location)
            }
        }
    }
}

extension SwiftTestingTestHandler {
    /// The issue to record for `violation`: a failure for the first violation of its group, a warning
    /// for a later member or site of the group (the same object from the same context), `nil` for an
    /// access already folded in. On the test case's own task the context is the task, whichever
    /// thread it resumed on.
    private func issue(
        for violation: ConfinementViolation, onTheTestsTask: Bool
    ) -> (report: String, severity: TestIssueSeverity, location: Testing.SourceLocation)? {
        let location = Testing.SourceLocation(bestFor: violation, near: testLocation)
        if violation.tier == .note { return (violation.description, .warning, location) }
        guard var group = violation.groupKey else { return (violation.description, .error, location) }
        if onTheTestsTask { group.actualContext = "the test's task" }
        let folded = FoldedAccess(group: group, member: violation.member, site: violation.accessSiteKey)
        enum Fold { case first, into(Testing.SourceLocation), again }
        let fold = failures.withLock { failures -> Fold in
            guard let failure = failures.groups[group] else {
                failures.groups[group] = location
                failures.folded.insert(folded)
                return .first
            }
            return failures.folded.insert(folded).inserted ? .into(failure) : .again
        }
        switch fold {
        case .first: return (violation.description, .error, location)
        case .again: return nil
        case .into(let failure):
            let report = "Schedulable: also used outside its owner: \(violation.accessLine)\n  the same "
                + "\(violation.objectType ?? "object") from the same context as the failure at "
                + "\(failure.fileID):\(failure.line): one bug, one failure; this access is a warning\n"
                + violation.description
            return (report, .warning, location)
        }
    }
}

/// Records an issue in the context of the test case that made it, from any thread.
private protocol OffTaskDelivery: Sendable {
    func record(_ comment: String, severity: TestIssueSeverity, at location: Testing.SourceLocation)
}

/// A task made on the test case's task waits for issues; each is handed to it and its step run on the
/// delivering thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class InlineDelivery: OffTaskDelivery {
    private typealias Request = (comment: String, severity: TestIssueSeverity, location: Testing.SourceLocation)
    private let executor = InlineTaskExecutor()
    private let waiting = LockedValue<UnsafeContinuation<Request, Never>?>(nil)
    /// One delivery at a time: each hands the task one issue and runs the task until it waits again.
    /// A bare mutex, not a `LockedValue<()>`, whose zero-sized state sits at the object's own address
    /// and confused ThreadSanitizer (Schedulable's CallStack.swift says how). `nonisolated(unsafe)`: a pthread mutex is
    /// made to be shared; `PlatformMutex` is not `Sendable` only because it is non-copyable.
    nonisolated(unsafe) private let deliveries = PlatformMutex()

    /// Call on the test case's task: the task made here inherits its task-locals.
    init() {
        // The task is never cancelled or ended: a test's late violation must still find it.
        Task(executorPreference: executor) { [waiting] in
            while true {
                let request = await withUnsafeContinuation { continuation in
                    waiting.withLock { $0 = continuation }
                }
                TestIssueRecording.record(request.comment, severity: request.severity, at: request.location)
            }
        }
        // Start it here: it runs until it waits for the first issue.
        executor.runPending()
    }

    func record(_ comment: String, severity: TestIssueSeverity, at location: Testing.SourceLocation) {
        deliveries.withLock {
            guard let continuation = waiting.withLock({ $0.take() }) else {
                // Not reached: each step ends waiting again. Recorded anyway, as an issue of no test.
                TestIssueRecording.record(comment, severity: severity, at: location)
                return
            }
            continuation.resume(returning: (comment, severity, location))
            executor.runPending()
        }
    }
}

extension Optional {
    /// Returns the value and leaves `nil`.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
