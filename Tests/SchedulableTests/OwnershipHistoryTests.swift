import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// A protected type whose initializer forwards its caller's site to the record, so that the history's
/// creation site is where each object was made (the pattern the Reporting Violations article shows).
final class Tracked: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined(name: "value") var value = 0

    init(owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        confinement = .transferable(owner: owner, file: file, line: line)
    }

    private init(confinement: Confinement) {
        self.confinement = confinement
    }

    static func detached(file: StaticString = #fileID, line: UInt = #line) -> Tracked {
        Tracked(confinement: .detached(file: file, line: line))
    }

    func ping() {
        assertIsolated()
    }

    func incrementAlways() {
        preconditionIsolated()
        value += 1
    }
}

/// Every wrong-context report of a protected object carries its ownership history in builds with the
/// debug tier (where it was created and on which thread, its last changes of owner, the last
/// legitimate access a slow path saw), and none without it.
@Suite("Ownership history")
struct OwnershipHistoryTests {
    /// Runs on a new plain thread and returns what `body` returns.
    private func fromPlainThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let results = LockedList<Result>()
        onPlainThread { results.append(body()) }
        return results.elements[0]
    }

    #if SCHEDULABLE_CHECKS
    /// Created on a plain thread for `owner`, used by the owner, then used on the creating thread
    /// (its window over: it handed work to a scheduler): the report names the creation site and the
    /// creating thread, in full, since it is the reporting thread.
    @Test func reportNamesTheCreationSiteAndTheCreatingThread() throws {
        let owner = SerialQueueScheduler(label: "test.history.created")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            let createdAt = fromPlainThread { () -> Int in
                let line = #line + 1
                let counter = withConfinementViolationHandler(recorder) { Tracked(owner: owner) }
                owner.sync { counter.ping() }     // the owner's use ends the window
                counter.ping()                    // reported, on the creating thread
                return line
            }
            let violation = try #require(recorder.violations.last)
            let history = try #require(violation.history)
            #expect(history.createdAt == CodeLocation(fileID: #fileID, line: createdAt))
            #expect(history.createdOn.contains("\"plain-thread\""), "\(history.createdOn)")
            #expect(history.createdOn.hasSuffix("(this thread)"), "\(history.createdOn)")
            #expect(history.ownerChanges.isEmpty && history.ownerChangeCount == 0)
        }
        #expect(recorder.count == 200)
    }

    /// Created on one thread, violated on another, with no change of owner in between: the creating
    /// thread is named by the library's never-reused thread number.
    @Test func aCreatingThreadThatIsNotTheReportingOneIsNamedByItsNumber() throws {
        let owner = SerialQueueScheduler(label: "test.history.number")
        let intruder = DispatchQueue(label: "test.history.number.intruder")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            let (counter, threadNumber) = fromPlainThread { () -> (Tracked, UInt) in
                (withConfinementViolationHandler(recorder) { Tracked(owner: owner) }, UInt(csched_thread_unique_id()))
            }
            owner.sync { counter.ping() }
            intruder.sync { counter.ping() }
            let history = try #require(recorder.violations.last?.history)
            #expect(history.createdOn == "another thread (library thread #\(threadNumber))")
        }
        #expect(recorder.count == 200)
    }

    /// Create on thread A for owner X, hand off to Y (from A, still building it), hand off to Z (from
    /// Y), then use it from elsewhere: the report lists both hand-offs in order, with their sites and
    /// where each was made, and names A by its OS thread id (A made the first change).
    @Test func theHandOffChainIsListedInOrderWithSites() throws {
        let x = SerialQueueScheduler(label: "test.history.x")
        let y = SerialQueueScheduler(label: "test.history.y")
        let z = SerialQueueScheduler(label: "test.history.z")
        let intruder = DispatchQueue(label: "test.history.chain.intruder")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            let (counter, createdAt, firstHandOff, threadA) = fromPlainThread { () -> (Tracked, Int, Int, UInt64) in
                let createdAt = #line + 1
                let counter = withConfinementViolationHandler(recorder) { Tracked(owner: x) }
                let firstHandOff = #line + 1
                counter.handOff(to: y)
                return (counter, createdAt, firstHandOff, csched_os_thread_id())
            }
            let secondHandOff = #line + 1
            y.sync { counter.handOff(to: z) }
            intruder.sync { counter.ping() }
            let violation = try #require(recorder.violations.last)
            #expect(violation.expectedOwner == "queue \"test.history.z\"")
            let history = try #require(violation.history)
            #expect(history.createdAt == CodeLocation(fileID: #fileID, line: createdAt))
            #expect(history.createdOn == "thread \(threadA) \"plain-thread\"")
            #expect(history.ownerChangeCount == 2)
            #expect(history.ownerChanges.map(\.kind) == ["handOff", "handOff"])
            #expect(history.ownerChanges.map(\.newOwner) == ["queue \"test.history.y\"", "queue \"test.history.z\""])
            #expect(history.ownerChanges.map(\.at) == [
                CodeLocation(fileID: #fileID, line: firstHandOff), CodeLocation(fileID: #fileID, line: secondHandOff),
            ])
            #expect(history.ownerChanges.first?.context == "thread \(threadA) \"plain-thread\"")
            #expect(history.ownerChanges.last?.context.hasPrefix("queue \"test.history.y\" (thread ") == true)
        }
        #expect(recorder.count == 200)
    }

    /// Six changes of owner: the report keeps the last four, oldest first, and says there were six.
    @Test func theHistoryKeepsTheLastFourChanges() throws {
        let x = SerialQueueScheduler(label: "test.history.ring.x")
        let y = SerialQueueScheduler(label: "test.history.ring.y")
        let intruder = DispatchQueue(label: "test.history.ring.intruder")
        let recorder = ViolationRecorder()
        #expect(ConfinementViolation.History.ownerChangeCapacity == 4)
        for _ in 0..<200 {
            let counter = withConfinementViolationHandler(recorder) { Tracked(owner: x) }
            var lines: [Int] = []
            for round in 0..<6 {
                let (from, to) = round.isMultiple(of: 2) ? (x, y) : (y, x)
                lines.append(#line + 1)
                from.sync { counter.handOff(to: to) }
            }
            intruder.sync { counter.ping() }
            let history = try #require(recorder.violations.last?.history)
            #expect(history.ownerChangeCount == 6)
            #expect(history.ownerChanges.map { $0.at?.line } == lines.suffix(4).map { Optional($0) })
            #expect(history.ownerChanges.map(\.newOwner) == [
                "queue \"test.history.ring.y\"", "queue \"test.history.ring.x\"",
                "queue \"test.history.ring.y\"", "queue \"test.history.ring.x\"",
            ])
            #expect(violationText(recorder).contains("  owner changes:   6, the last 4 below"))
        }
        #expect(recorder.count == 200)
    }

    /// A detached object bound by its first use on a queue: the binding is a change of owner, and that
    /// use is the last legitimate access the slow path saw — later accesses on the owner's own
    /// scheduler pass on the fast path and are not recorded.
    @Test func theLastLegitimateAccessIsTheLastOneTheSlowPathSaw() throws {
        let owner = SerialQueueScheduler(label: "test.history.first-use")
        let intruder = DispatchQueue(label: "test.history.first-use.intruder")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            let createdAt = #line + 1
            let counter = withConfinementViolationHandler(recorder) { Tracked.detached() }
            owner.sync { counter.ping() }
            owner.sync { counter.value += 1 }       // the fast path: not recorded
            intruder.sync { counter.ping() }
            let history = try #require(recorder.violations.last?.history)
            #expect(history.createdAt == CodeLocation(fileID: #fileID, line: createdAt))
            #expect(history.ownerChanges.map(\.kind) == ["boundByFirstUse"])
            let access = try #require(history.lastLegitimateAccess)
            #expect(access.member == "ping()")
            // ping()'s guard: the violation's call site too (the fast-path write to `value` left no trace).
            #expect(access.at == recorder.violations.last?.callSite)
            #expect(access.context.hasPrefix("queue \"test.history.first-use\" (thread "), "\(access.context)")
        }
        #expect(recorder.count == 200)
    }

    /// The hand-off call is itself a legitimate access, made by the owner.
    @Test func aHandOffIsRecordedAsALegitimateAccess() throws {
        let x = SerialQueueScheduler(label: "test.history.handoff-access.x")
        let y = SerialQueueScheduler(label: "test.history.handoff-access.y")
        let intruder = DispatchQueue(label: "test.history.handoff-access.intruder")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            let counter = settled(Tracked(owner: x), owner: x, recorder: recorder)
            let handOff = #line + 1
            x.sync { counter.handOff(to: y) }
            intruder.sync { counter.ping() }
            let access = try #require(recorder.violations.last?.history?.lastLegitimateAccess)
            #expect(access.member == "handOff(to:)")
            #expect(access.at == CodeLocation(fileID: #fileID, line: handOff))
            #expect(access.context.hasPrefix("queue \"test.history.handoff-access.x\" (thread "))
        }
        #expect(recorder.count == 200)
    }

    /// The text report keeps its fixed shape (one field a line, labels from user code escaped) and the
    /// JSON line carries the same history.
    @Test func textAndJSONReportsCarryTheHistory() throws {
        let x = SerialQueueScheduler(label: "test.history.text.x")
        let y = SerialQueueScheduler(label: "evil\nlabel")
        let recorder = ViolationRecorder()
        let counter = settled(Tracked(owner: x), owner: x, recorder: recorder)
        let handOffLine = #line + 1
        x.sync { counter.handOff(to: y) }
        let detachLine = #line + 1
        y.sync { counter.detach() }
        y.sync { counter.ping() }
        DispatchQueue(label: "test.history.text.intruder").sync { counter.ping() }
        let violation = try #require(recorder.violations.last)
        // The history's lines, then the stack's (debug tier), which end the report.
        let lines = violation.description.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("  stack:") && !$0.hasPrefix("                   #") }
        let labels = ["created at:", "owner change:", "owner change:", "owner change:", "last legitimate:"]
        let historyLines = lines.suffix(labels.count)
        for (line, label) in zip(historyLines, labels) {
            #expect(line.hasPrefix("  " + label), "\(line)")
        }
        #expect(!lines.contains { $0.hasPrefix("label") }, "a label's newline must stay escaped")
        // Each change in words (a reader has never seen the case names), with its site and context.
        let changes = Array(historyLines.dropFirst().prefix(3))
        let here = #fileID
        #expect(changes[0].hasPrefix("  owner change:    handed off to queue \"evil\\nlabel\" at \(here):\(handOffLine), made on queue \"test.history.text.x\" (thread "), "\(changes[0])")
        #expect(changes[1].hasPrefix("  owner change:    detached at \(here):\(detachLine), made on queue \"evil\\nlabel\" (thread "), "\(changes[1])")
        // The first use's site is ping()'s guard, in Tracked.
        #expect(changes[2].hasPrefix("  owner change:    bound to queue \"evil\\nlabel\" by its first use at \(here):"), "\(changes[2])")
        #expect(changes[2].contains(", made on queue \"evil\\nlabel\" (thread "), "\(changes[2])")

        let json = violation.jsonLine()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 4)
        let history = try #require(object["history"] as? [String: Any])
        #expect(history["ownerChangeCount"] as? Int == 3)
        // The JSON Lines schema keeps the identifiers.
        let jsonChanges = try #require(history["ownerChanges"] as? [[String: Any]])
        #expect(jsonChanges.map { $0["kind"] as? String } == ["handOff", "detach", "boundByFirstUse"])
        #expect(jsonChanges.first?["newOwner"] as? String == "queue \"evil\nlabel\"")
        #expect((jsonChanges.first?["at"] as? [String: Any])?["fileID"] as? String == #fileID)
        let created = try #require(history["createdAt"] as? [String: Any])
        #expect(created["line"] as? Int == violation.history?.createdAt?.line)
        #expect((history["lastLegitimateAccess"] as? [String: Any])?["member"] as? String == "ping()")
    }

    /// An object sent into a ``SchedulableObject`` is bound to its scheduler for good: a change of owner,
    /// which the report gives in words.
    @Test func anObjectSentIntoASchedulableObjectIsBoundAndTheReportSaysSo() throws {
        let owner = SerialQueueScheduler(label: "test.history.sent")
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Tracked.detached() }
        let sentLine = #line + 1
        let object = SchedulableObject(counter, on: owner)
        DispatchQueue(label: "test.history.sent.intruder").sync { counter.ping() }
        let violation = try #require(recorder.violations.last)
        #expect(violation.history?.ownerChanges.map(\.kind) == ["boundBySending"])
        let line = violation.description.split(separator: "\n").first { $0.hasPrefix("  owner change:") }
        let expected = "  owner change:    bound to queue \"test.history.sent\" by being sent into a SchedulableObject at \(#fileID):\(sentLine), made on "
        #expect(line?.hasPrefix(expected) == true, "\(line ?? "no owner change line")")
        withExtendedLifetime(object) {}
    }

    private func settled(_ make: @autoclosure () -> Tracked, owner: SerialQueueScheduler, recorder: ViolationRecorder) -> Tracked {
        let tracked = withConfinementViolationHandler(recorder) { make() }
        owner.sync { tracked.ping() }
        return tracked
    }

    private func violationText(_ recorder: ViolationRecorder) -> String {
        recorder.violations.last?.description ?? ""
    }
    #endif

    /// A precondition-tier report printed before the trap carries the history too (debug tier), or
    /// none (release).
    @Test(.exitTest) func thePrintedReportBeforeATrapCarriesTheHistory() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let x = SerialQueueScheduler(label: "exit.history.x")
            let y = SerialQueueScheduler(label: "exit.history.y")
            let counter = Tracked(owner: x)
            x.sync { counter.handOff(to: y) }
            DispatchQueue(label: "exit.history.intruder").sync { counter.incrementAlways() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Tracked.incrementAlways() used outside its owner"))
            let hasHistory = ConfinementSystem.debugChecksCompiledIn
            #expect(stderr.contains("  owner change:    handed off to queue \"exit.history.y\" at ") == hasHistory)
            #expect(stderr.contains("  created at:      SchedulableTests/OwnershipHistoryTests.swift:") == hasHistory)
        }
    }
}
