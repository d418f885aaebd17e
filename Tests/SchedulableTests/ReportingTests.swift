import Dispatch
import Foundation
import Schedulable
import Testing

/// Reports: contents, handler modes, deduplication, recursion, the environment variable, bootstrap.
@Suite("Reporting")
struct ReportingTests {
    @Test func readModifyWriteChecksOnce() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.rmw")
        let counter = settledCounter(owner: owner, recorder: recorder)
        let intruder = DispatchQueue(label: "test.rmw.intruder")
        intruder.sync { counter.count += 1 }
        #expect(recorder.count == expectedDebugTier(1))
        intruder.sync { counter.items.append(7) }
        #expect(recorder.count == expectedDebugTier(2))
        intruder.sync { counter.items[0] += 1 }
        #expect(recorder.count == expectedDebugTier(3))
        intruder.sync { counter.flag.toggle() }
        #expect(recorder.count == expectedDebugTier(4))
        #expect(owner.sync { counter.items } == [8])
    }

    @Test func unnamedPropertyIsNamedByItsField() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.unnamed")
        let counter = settledCounter(owner: owner, recorder: recorder)
        DispatchQueue(label: "test.unnamed.intruder").sync { _ = counter.items }
        if let violation = recorder.violations.first {
            #expect(violation.member == "items")
            #expect(violation.detail?.hasPrefix("property declared at SchedulableTests/ViolationRecorder.swift:") == true)
        }
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test func reportDescriptionHasEveryField() {
        let violation = ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", objectIdentity: "0x1",
            member: "enqueue(_:)", expectedOwner: "queue \"uploads\"", actualContext: "main thread",
            ownerBoundAt: CodeLocation(fileID: "App/Uploads.swift", line: 3),
            callSite: CodeLocation(fileID: "App/Uploads.swift", line: 9)
        )
        let text = violation.description
        for field in ["UploadQueue.enqueue(_:) used outside its owner", "object:          UploadQueue (0x1)",
                      "member:          enqueue(_:)", "expected owner:  queue \"uploads\"",
                      "actual context:  main thread", "owner bound at:  App/Uploads.swift:3",
                      "call site:       App/Uploads.swift:9"] {
            #expect(text.contains(field))
        }
    }

    @Test func logHandlerPrintsOncePerTypeAndMemberWithCounts() {
        let lines = LockedList<String>()
        let log = LogViolationHandler(output: { line in lines.append(line) })
        let owner = SerialQueueScheduler(label: "test.log")
        let counter = withConfinementViolationHandler(log) { Counter(owner: owner) }
        owner.sync { counter.ping() }
        let intruder = DispatchQueue(label: "test.log.intruder")
        for _ in 0..<5 { intruder.sync { counter.ping() } }
        intruder.sync { counter.reset() }
        let printed = lines.elements
        if ConfinementSystem.debugChecksCompiledIn {
            #expect(log.count(for: "Counter.ping()") == 5)
            // First occurrence in full, then at 2 and 4; then reset() — the same counter from the same
            // queue, one bug — as one line, and count (its property access).
            #expect(printed.filter { $0.contains("Counter.ping() used outside its owner\n") }.count == 1)
            #expect(printed.filter { $0.contains("again at SchedulableTests/ViolationRecorder.swift:45 (2 times so far)") }.count == 1)
            #expect(printed.filter { $0.contains("again at SchedulableTests/ViolationRecorder.swift:45 (4 times so far)") }.count == 1)
            #expect(printed.filter { $0.hasPrefix("Schedulable: also used outside its owner: reset() ") }.count == 1)
            #expect(printed.count == 5)
        } else {
            #expect(printed.isEmpty)
        }
    }

    @Test func customHandlerReceivesViolations() {
        let seen = LockedList<String>()
        let owner = SerialQueueScheduler(label: "test.custom")
        let counter = withConfinementViolationHandler(CustomViolationHandler { violation in seen.append(violation.member) }) {
            Counter(owner: owner)
        }
        owner.sync { counter.ping() }
        DispatchQueue(label: "test.custom.intruder").sync { counter.ping() }
        #expect(seen.elements == (ConfinementSystem.debugChecksCompiledIn ? ["ping()"] : []))
    }

    /// `.off` ignores the debug tier: a wrong-context call is neither delivered, printed nor trapped, and
    /// the call goes on. In a child process, whose exit status and standard error the test reads (a trap
    /// or a report would be the default handler's); the same calls under a recorder show that this build
    /// does detect them, so the silence is `.off`'s doing.
    @Test(.exitTest) func offHandlerIgnoresDebugTier() async throws {
        let recorder = ViolationRecorder()
        let control = settledCounter(owner: SerialQueueScheduler(label: "test.off.control"), recorder: recorder)
        DispatchQueue(label: "test.off.control.intruder").sync { control.ping() }
        #expect(recorder.count == expectedDebugTier(1))

        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "test.off")
            let counter = withConfinementViolationHandler(.off) { Counter(owner: owner) }
            owner.sync { counter.increment() }
            DispatchQueue(label: "test.off.intruder").sync { counter.ping(); counter.increment() }
            // The calls went on: the second increment counted.
            precondition(owner.sync { counter.count } == 2, "a call under .off did not go on")
        }
        let stderr = standardErrorText(result)
        #expect(!stderr.contains("Schedulable:"), "\(stderr)")
    }

    /// A handler that itself touches a protected object from the wrong context must not recurse: the
    /// inner violation is printed, not delivered again. In a child process, whose standard error the
    /// test reads (a green run prints no report).
    @Test(.exitTest) func violationInsideHandlerDoesNotRecurse() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "test.recursion")
            let victim = UncheckedBox<Counter>(Counter(owner: owner))
            let calls = ManagedCounter()
            let handler = CustomViolationHandler { _ in
                calls.add()
                victim.value?.ping()     // wrong context again, inside the handler
            }
            victim.value = withConfinementViolationHandler(handler) { Counter(owner: owner) }
            owner.sync { victim.value?.ping() }
            DispatchQueue(label: "test.recursion.intruder").sync { victim.value?.ping() }
            #expect(calls.value == expectedDebugTier(1))
        }
        let stderr = standardErrorText(result)
        let printed = "Schedulable: violation raised inside a violation handler (not delivered again):\n"
            + "Schedulable: Counter.ping() used outside its owner\n"
        #expect(stderr.components(separatedBy: printed).count == expectedDebugTier(1) + 1, "\(stderr)")
    }

    @Test func scopedHandlerCatchesViolationsDetectedLaterOnOtherThreads() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.scope")
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
        owner.sync { counter.ping() }
        // Outside the scope, on a GCD worker: still routed to the handler the object captured.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                counter.ping()
                continuation.resume()
            }
        }
        #expect(recorder.count == expectedDebugTier(1))
    }

    // MARK: - Trap paths (exit tests)

    @Test(.exitTest) func defaultHandlerPrintsWholeReportThenTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Uploads: ConfinedObject, @unchecked Sendable {
                static let scheduler = SerialQueueScheduler(label: "com.app.uploads")
                let confinement = Confinement(owner: Uploads.scheduler)
                func enqueue() { preconditionIsolated() }
            }
            let uploads = Uploads()
            Uploads.scheduler.sync { uploads.enqueue() }   // the owner's first use ends construction
            DispatchQueue(label: "com.app.intruder").sync { uploads.enqueue() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Uploads.enqueue() used outside its owner"))
            #expect(stderr.contains("expected owner:  queue \"com.app.uploads\""))
            #expect(stderr.contains("actual context:  queue \"com.app.intruder\""))
            #expect(stderr.contains("owner bound at:  SchedulableTests/ReportingTests.swift:"))
            #expect(stderr.contains("call site:       SchedulableTests/ReportingTests.swift:"))
        }
    }

    /// Debug builds trap by default; release builds with the ReleaseChecks trait log and go on.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func debugTierFollowsTheBuildsDefaultMode() async {
        let outcome: ExitTest.Condition = ConfinementSystem.defaultLevel == .trap ? .failure : .success
        await #expect(processExitsWith: outcome, observing: [\.standardErrorContent]) {
            useFromAnotherQueue(ownerLabel: "exit.debug.owner") { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.ping() used outside its owner"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func environmentVariableSwitchesToWarnOnceAndTheProcessContinues() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "warn-once", 1)
            useFromAnotherQueue(ownerLabel: "exit.env.owner", times: 3) { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.components(separatedBy: "Counter.ping() used outside its owner\n").count == 2)
            #expect(stderr.contains("used outside its owner again at SchedulableTests/ViolationRecorder.swift:"))
            #expect(stderr.contains(" (2 times so far)"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func environmentVariableOverridesBootstrap() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_CONFINEMENT", "off", 1)
            ConfinementSystem.bootstrap(.trap)
            useFromAnotherQueue(ownerLabel: "exit.env.off") { $0.ping() }
        }
    }

    @Test(.exitTest) func invalidEnvironmentValueIsReportedNotSilentlyIgnored() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "loud", 1)
            _ = ConfinementSystem.handler
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("SCHEDULABLE_CONFINEMENT: the confinement policy \"loud\" has a problem: \"loud\": unknown level \"loud\""))
            #expect(stderr.contains("levels: off, observe, warn-once, warn, fail-test, trap"))
        }
    }

    @Test(.exitTest) func secondBootstrapTrapsNamingBothCallSites() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(.log)
            ConfinementSystem.bootstrap(.trap)
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("bootstrap called twice: first at SchedulableTests/ReportingTests.swift:"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func bootstrappedLogHandlerReceivesUnscopedViolations() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(.log)
            useFromAnotherQueue(ownerLabel: "exit.bootstrap.owner") { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.ping() used outside its owner"))
        }
    }
}
