import Dispatch
import Foundation
@testable import Schedulable
import Testing

// Report contents: the member's name without annotation, the access site and the stack, in every
// context a bad access comes from. The violating accesses are made in `@inline(never)` functions, so
// they keep a frame of their own in every build.
//
// What is guaranteed, and asserted:
// - debug builds: the access site's file, line and function exactly, and the stack's first frame is
//   the same;
// - optimized builds (`-c release --traits ReleaseChecks`): the access site's function, which the
//   optimizer may have turned into a `specialized` copy, and its file and line when the debug
//   information has a row for the return address (it may not: code inlined from the library can carry
//   line 0, and then the frame names its image instead); functions with identical bodies may be merged
//   into one, so the two sites of the findings tests differ in what they compute.
// Frames below the first (the closure that called it, dispatch, the test runner) are shown as the
// build left them and are not asserted.

/// A service whose property has no `name:` and whose method has a guard.
final class Inbox: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    static let unreadLine = #line + 1
    @Confined var unread = 0
    static let markReadGuardLine = #line + 3

    func markRead() {
        assertIsolated()
    }

    init(owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        confinement = Confinement(owner: owner, file: file, line: line)
    }
}

/// A subclass: its superclass's properties are named too.
final class PriorityInbox: InboxBase, @unchecked Sendable {
    @Confined var flagged = false
}

class InboxBase: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var archived = 0

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }
}

enum BadAccess {
    static let readUnreadLine = #line + 2
    @inline(never) static func readUnread(_ inbox: Inbox) -> Int {
        inbox.unread
    }

    static let readUnreadElsewhereLine = #line + 2
    @inline(never) static func readUnreadElsewhere(_ inbox: Inbox) -> Int {
        inbox.unread &+ 1
    }

    @inline(never) static func markRead(_ inbox: Inbox) {
        inbox.markRead()
    }

    static let objectGuardLine = #line + 2
    @inline(never) static func checkObject(_ object: SchedulableObject<[Int]>) {
        object.assertIsolated()
    }

    static let boundValueLine = #line + 2
    @inline(never) static func readBound(_ box: SchedulerBound<Int>) -> Int {
        box.value
    }
}

private let thisFile = "SchedulableTests/ReportContentTests.swift"

/// Checks a report's text line by line: `expected` lines must match exactly, in order, except that a line
/// ending in `…` must start with the part before it. Lines the report adds between them (the ownership
/// history) are skipped; `stack` must be the report's last lines' first entry.
private func expectReport(
    _ text: String, lines expected: [String], stackTop: String?,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.last?.isEmpty == true { lines.removeLast() }
    var index = 0
    for line in expected {
        let prefix = line.hasSuffix("…") ? String(line.dropLast()) : nil
        guard let found = lines[index...].firstIndex(where: { prefix.map($0.hasPrefix) ?? matches($0, line) }) else {
            Issue.record("no line \"\(line)\" after line \(index) of:\n\(text)", sourceLocation: sourceLocation)
            return
        }
        index = found + 1
    }
    let stackLines = lines.filter { $0.hasPrefix("  stack:") || $0.hasPrefix("                   #") }
    if let stackTop {
        #expect(
            stackLines.first.map { matches($0, "  stack:           #0 \(stackTop)") } == true,
            "\(stackLines.first ?? "no stack") is not \(stackTop)", sourceLocation: sourceLocation
        )
        #expect((1...ConfinementSystem.reportStackDepth).contains(stackLines.count), sourceLocation: sourceLocation)
        #expect(lines.suffix(stackLines.count) == ArraySlice(stackLines), "the stack is the report's end", sourceLocation: sourceLocation)
    } else {
        #expect(stackLines.isEmpty, sourceLocation: sourceLocation)
    }
}

/// Whether a report line is the expected one — in an optimized build, allowing what the optimizer may
/// change in an access site or stack frame line (see the top of this file): `File:line in f` may read
/// `File:line in specialized f`, `specialized f in Image` or `f in Image`; `f at File:line` likewise.
private func matches(_ actual: String, _ expected: String) -> Bool {
    if actual == expected { return true }
    #if SCHEDULABLE_DEBUG_BUILD
    return false
    #else
    for (label, separator) in [("  access site:     ", " in "), ("  stack:           #0 ", " at ")] {
        guard expected.hasPrefix(label), actual.hasPrefix(label) else { continue }
        let expectedRest = expected.dropFirst(label.count)
        let actualRest = String(actual.dropFirst(label.count))
        let parts = expectedRest.components(separatedBy: separator)
        guard parts.count == 2 else { return false }
        let (function, place) = separator == " in " ? (parts[1], parts[0]) : (parts[0], parts[1])
        let candidates = separator == " in "
            ? ["\(place) in specialized \(function)", "specialized \(function) in ", "\(function) in "]
            : ["specialized \(function) at \(place)", "specialized \(function) in ", "\(function) in "]
        return candidates.contains { actualRest == $0 || ($0.hasSuffix(" in ") && actualRest.hasPrefix($0)) }
    }
    return false
    #endif
}

private func identity(_ object: AnyObject) -> String {
    "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16)
}

/// The report lines of an `Inbox.unread` read made by `readUnread`, for an inbox made at `createdLine`.
private func unreadReport(_ inbox: Inbox, owner: String, context: String, createdLine: Int) -> [String] {
    [
        "Schedulable: Inbox.unread used outside its owner",
        "  object:          Inbox (\(identity(inbox)))",
        "  member:          unread",
        "  expected owner:  \(owner)",
        "  actual context:  \(context)",
        "  access site:     \(thisFile):\(BadAccess.readUnreadLine) in static BadAccess.readUnread(_:)",
        "  owner bound at:  \(thisFile):\(createdLine)",
        "  detail:          property declared at \(thisFile):\(Inbox.unreadLine)",
    ]
}

private let unreadStackTop = "static BadAccess.readUnread(_:) at \(thisFile):\(BadAccess.readUnreadLine)"

@Suite("Report contents")
struct ReportContentTests {
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertyReadFromAnotherQueueNamesThePropertyTheAccessSiteAndTheStack() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.owner")
        let createdLine = #line + 1
        let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
        inbox.confinement.endConstruction()
        _ = DispatchQueue(label: "content.other").sync { BadAccess.readUnread(inbox) }
        let violation = try #require(recorder.violations.first)
        #expect(violation.member == "unread")
        #expect(violation.accessSite?.function.hasSuffix("static BadAccess.readUnread(_:)") == true)
        #if SCHEDULABLE_DEBUG_BUILD
        #expect(violation.accessSite?.fileID == thisFile)
        #expect(violation.accessSite?.line == BadAccess.readUnreadLine)
        #expect(violation.accessSite?.file?.hasSuffix("/Tests/SchedulableTests/ReportContentTests.swift") == true)
        #endif
        expectReport(
            violation.description,
            lines: unreadReport(inbox, owner: "queue \"content.owner\"", context: "queue \"content.other\" (thread …", createdLine: createdLine),
            stackTop: unreadStackTop
        )
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theJSONLineCarriesTheAccessSiteAndTheStack() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.json.owner")
        let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
        inbox.confinement.endConstruction()
        _ = DispatchQueue(label: "content.json.other").sync { BadAccess.readUnread(inbox) }
        let violation = try #require(recorder.violations.first)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(violation.jsonLine().utf8)) as? [String: Any]
        )
        #expect(object["version"] as? Int == 4)
        #expect(object["member"] as? String == "unread")
        let site = try #require(object["accessSite"] as? [String: Any])
        #expect((site["function"] as? String)?.hasSuffix("static BadAccess.readUnread(_:)") == true)
        let stack = try #require(object["stack"] as? [[String: Any]])
        #expect(stack.count == violation.stack.count && !stack.isEmpty)
        #expect(stack.first?["function"] as? String == site["function"] as? String)
        #if SCHEDULABLE_DEBUG_BUILD
        let location = try #require(site["location"] as? [String: Any])
        #expect(location["fileID"] as? String == thisFile)
        #expect(location["line"] as? Int == BadAccess.readUnreadLine)
        #expect((location["path"] as? String)?.hasSuffix("/Tests/SchedulableTests/ReportContentTests.swift") == true)
        #endif
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertyReadOnAPoolThread() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.pool.owner")
        let createdLine = #line + 1
        let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
        inbox.confinement.endConstruction()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = BadAccess.readUnread(inbox)
            done.signal()
        }
        done.wait()
        let violation = try #require(recorder.violations.first)
        expectReport(
            violation.description,
            lines: unreadReport(inbox, owner: "queue \"content.pool.owner\"", context: "thread …", createdLine: createdLine),
            stackTop: unreadStackTop
        )
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertyReadInATask() async throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.task.owner")
        let createdLine = #line + 1
        let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
        inbox.confinement.endConstruction()
        _ = await Task.detached { BadAccess.readUnread(inbox) }.value
        let violation = try #require(recorder.violations.first)
        expectReport(
            violation.description,
            lines: unreadReport(
                inbox, owner: "queue \"content.task.owner\"",
                context: "queue \"Swift global concurrent queue\" (thread …", createdLine: createdLine
            ),
            stackTop: unreadStackTop
        )
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertyReadOnTheMainThread() throws {
        // The test process's main thread is parked in dispatchMain(); the probe program's top-level code
        // runs on it (see Tests/SchedulableMainProbe/Report.swift).
        let outcome = try runMainProbe(["report"])
        #expect(outcome.exitStatus == 0)
        // The first report: the probe then reads again while the owner is busy (ViolationSidesTests).
        let output = outcome.standardError.components(separatedBy: "busy line: ")[0]
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("access line: ") }.flatMap { Int($0.dropFirst(13)) })
        let probeFile = "schedulable_main_probe/Report.swift"
        expectReport(
            output,
            lines: [
                "Schedulable: Mailbox.unread used outside its owner",
                "  member:          unread",
                "  expected owner:  queue \"probe.mail\"",
                "  actual context:  main thread",
                "  access site:     \(probeFile):\(line) in readMailboxOnMainThread(_:)",
            ],
            stackTop: "readMailboxOnMainThread(_:) at \(probeFile):\(line)"
        )
        #if DEBUG
        // The probe's top-level code, further down: named in words, not `schedulable_main_probe_main`
        // (checked in debug builds, where nothing is inlined into it).
        #expect(output.contains("#2 top-level code at schedulable_main_probe/main.swift:"), "\(output)")
        #endif
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aMethodGuardNamesTheMethodAndItsGuardAsTheAccessSite() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.method.owner")
        let createdLine = #line + 1
        let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
        inbox.confinement.endConstruction()
        DispatchQueue(label: "content.method.other").sync { BadAccess.markRead(inbox) }
        let violation = try #require(recorder.violations.first)
        let site = "\(thisFile):\(Inbox.markReadGuardLine)"
        expectReport(
            violation.description,
            lines: [
                "Schedulable: Inbox.markRead() used outside its owner",
                "  object:          Inbox (\(identity(inbox)))",
                "  member:          markRead()",
                "  expected owner:  queue \"content.method.owner\"",
                "  actual context:  queue \"content.method.other\" (thread …",
                "  access site:     \(site) in Inbox.markRead()",
                "  owner bound at:  \(thisFile):\(createdLine)",
                "  call site:       \(site)",
            ],
            stackTop: "Inbox.markRead() at \(site)"
        )
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aSchedulableObjectsGuardNamesItsCaller() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.object.owner")
        let boundLine = #line + 1
        let object = withConfinementViolationHandler(recorder) { SchedulableObject([Int](), on: owner) }
        DispatchQueue(label: "content.object.other").sync { BadAccess.checkObject(object) }
        let violation = try #require(recorder.violations.first)
        let site = "\(thisFile):\(BadAccess.objectGuardLine)"
        expectReport(
            violation.description,
            lines: [
                "Schedulable: SchedulableObject<Array<Int>>.assertIsolated() used outside its owner",
                "  member:          assertIsolated()",
                "  expected owner:  queue \"content.object.owner\"",
                "  actual context:  queue \"content.object.other\" (thread …",
                "  access site:     \(site) in static BadAccess.checkObject(_:)",
                "  owner bound at:  \(thisFile):\(boundLine)",
            ],
            stackTop: "static BadAccess.checkObject(_:) at \(site)"
        )
    }

    @Test(.exitTest) func aSchedulerBoundBoxTrapsWithTheAccessSiteInEveryBuild() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "content.box.owner")
            let box = SchedulerBound(1, owner: owner)
            _ = DispatchQueue(label: "content.box.other").sync { BadAccess.readBound(box) }
        }.map { result in
            let stderr = standardErrorText(result)
            // The report, up to the first line that is not part of it (the trap's message).
            let all = stderr.split(separator: "\n", omittingEmptySubsequences: false)
            let start = all.firstIndex { $0.hasPrefix("Schedulable: SchedulerBound") } ?? all.startIndex
            let end = all[start...].dropFirst().firstIndex { !$0.hasPrefix("  ") } ?? all.endIndex
            let report = all[start..<end].joined(separator: "\n")
            let site = "\(thisFile):\(BadAccess.boundValueLine)"
            expectReport(
                report,
                lines: [
                    "Schedulable: SchedulerBound<Int>.value used outside its owner",
                    "  member:          value",
                    "  expected owner:  queue \"content.box.owner\"",
                    "  actual context:  queue \"content.box.other\" (thread …",
                    "  access site:     \(site) in static BadAccess.readBound(_:)",
                ],
                stackTop: ConfinementSystem.debugChecksCompiledIn ? "static BadAccess.readBound(_:) at \(site)" : nil
            )
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func propertiesOfASuperclassAreNamedAndNameOverridesWin() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "content.names.owner")
        let inbox = withConfinementViolationHandler(recorder) { PriorityInbox(owner: owner) }
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
        inbox.confinement.endConstruction()
        counter.confinement.endConstruction()
        DispatchQueue(label: "content.names.other").sync {
            _ = inbox.archived
            _ = inbox.flagged
            _ = counter.items
            _ = counter.flag
        }
        #expect(recorder.violations.map(\.qualifiedMember)
            == ["PriorityInbox.archived", "PriorityInbox.flagged", "Counter.items", "Counter.flag"])
    }

    @Test(.exitTest) func theStackDepthIsConfigurableAndZeroTurnsTheStackOff() async {
        await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let recorder = ViolationRecorder()
            let owner = SerialQueueScheduler(label: "content.depth.owner")
            let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
            inbox.confinement.endConstruction()
            let other = DispatchQueue(label: "content.depth.other")
            for depth in [2, 0] {
                ConfinementSystem.reportStackDepth = depth
                _ = other.sync { BadAccess.readUnread(inbox) }
            }
            for violation in recorder.violations {
                print("stack \(violation.stack.count) site \(violation.accessSite != nil)")
            }
        }.map { result in
            let output = String(decoding: result.standardOutputContent, as: UTF8.self)
            #expect(output == (ConfinementSystem.debugChecksCompiledIn ? "stack 2 site true\nstack 0 site true\n" : ""))
        }
    }

    @Test(.exitTest) func theEnvironmentSetsTheStackDepth() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_CONFINEMENT_STACK", "3", 1)
            guard ConfinementSystem.reportStackDepth == 3 else { exit(1) }
        }
    }

    @Test(.exitTest) func withoutTheSelfCheckedLookupPropertiesAreNamedByDeclarationSite() async {
        await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            setenv("SCHEDULABLE_DISABLE_PROPERTY_NAMES", "1", 1)
            let recorder = ViolationRecorder()
            let owner = SerialQueueScheduler(label: "content.kill.owner")
            let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
            inbox.confinement.endConstruction()
            _ = DispatchQueue(label: "content.kill.other").sync { BadAccess.readUnread(inbox) }
            print(recorder.members.joined(separator: ","))
        }.map { result in
            let output = String(decoding: result.standardOutputContent, as: UTF8.self)
            #expect(output == (ConfinementSystem.debugChecksCompiledIn ? "\(thisFile):\(Inbox.unreadLine)\n" : "\n"))
        }
    }

    /// Every change of owner the history records reads in words: a reader of a report has never seen
    /// the library's case names. The JSON Lines record keeps them, as its schema says.
    @Test func ownerChangesAreInPlainWordsAndTheJSONKeepsTheIdentifiers() throws {
        let site = CodeLocation(fileID: "App/Batch.swift", line: 12)
        let words: [String: String] = [
            "handOff": "handed off to queue \"q\" at App/Batch.swift:12",
            "detach": "detached at App/Batch.swift:12",
            "boundByFirstUse": "bound to queue \"q\" by its first use at App/Batch.swift:12",
            "boundBySending": "bound to queue \"q\" by being sent into a SchedulableObject at App/Batch.swift:12",
        ]
        // Every kind the library records has its words; a new kind must get them too.
        #expect(Set(OwnershipEventKind.allCases.map(\.rawValue)) == Set(words.keys))
        for kind in OwnershipEventKind.allCases.map(\.rawValue) + ["movedByAFutureVersion"] {
            var history = ConfinementViolation.History(createdAt: site, createdOn: "main thread")
            history.ownerChanges = [
                .init(kind: kind, newOwner: kind == "detach" ? "detached" : "queue \"q\"", at: site, context: "main thread"),
            ]
            history.ownerChangeCount = 1
            var violation = ConfinementViolation(
                kind: .wrongContext, tier: .assert, member: "add(_:)", expectedOwner: "queue \"q\"", actualContext: "main thread"
            )
            violation.history = history
            let line = violation.description.split(separator: "\n").first { $0.hasPrefix("  owner change:") }
            // A kind this version does not know is shown as it is.
            let phrase = words[kind] ?? "movedByAFutureVersion to queue \"q\" at App/Batch.swift:12"
            #expect(line == "  owner change:    \(phrase), made on main thread")

            let object = try #require(try JSONSerialization.jsonObject(with: Data(violation.jsonLine().utf8)) as? [String: Any])
            let changes = (object["history"] as? [String: Any])?["ownerChanges"] as? [[String: Any]]
            #expect(changes?.map { $0["kind"] as? String } == [kind])
        }
    }
}

/// Warn-once and storm control count per access site: two bad call sites of one property are two findings.
/// One object from one wrong context is one bug, so one report: the second site of the same object from
/// the same context is one line that names it.
@Suite("Findings per access site")
struct AccessSiteFindingTests {
    private func violate(with handler: some ConfinementViolationHandler, label: String) {
        let owner = SerialQueueScheduler(label: label)
        let inbox = withConfinementViolationHandler(handler) { Inbox(owner: owner) }
        inbox.confinement.endConstruction()
        DispatchQueue(label: label + ".other").sync {
            for _ in 0..<3 { _ = BadAccess.readUnread(inbox) }
            for _ in 0..<2 { _ = BadAccess.readUnreadElsewhere(inbox) }
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func warnOnceReportsEachAccessSiteOfOnePropertyOnce() {
        for _ in 0..<200 {
            let output = LockedList<String>()
            let handler = PolicyViolationHandler(ConfinementPolicy(default: .warnOnce)) { output.append($0) }
            violate(with: handler, label: "findings.warn-once")
            let reports = output.elements.filter { $0.hasPrefix("Schedulable: Inbox.unread used outside its owner\n") }
            #expect(reports.count == 1)
            #expect(reports.first?.contains("static BadAccess.readUnread(_:)") == true)
            let also = output.elements.filter { $0.hasPrefix("Schedulable: also used outside its owner: unread at ") }
            #expect(also.count == 1)
            #expect(also.first?.contains("static BadAccess.readUnreadElsewhere(_:) — the same Inbox (0x") == true)
            #expect(also.first?.hasSuffix(") from the same context as a report above\n") == true)
            let summary = handler.summary.split(separator: "\n").map(String.init)
            #expect(summary.first == "Schedulable: violation summary: 5 violations at 2 sites")
            #if SCHEDULABLE_DEBUG_BUILD
            #expect(summary.dropFirst() == [
                "  3 × Inbox.unread at \(thisFile):\(BadAccess.readUnreadLine) in static BadAccess.readUnread(_:)",
                "  2 × Inbox.unread at \(thisFile):\(BadAccess.readUnreadElsewhereLine) in static BadAccess.readUnreadElsewhere(_:)",
            ])
            #else
            #expect(summary.count == 3 && summary[1].hasPrefix("  3 × Inbox.unread at ") && summary[1].contains("BadAccess.readUnread(_:)"))
            #expect(summary.count == 3 && summary[2].hasPrefix("  2 × Inbox.unread at ") && summary[2].contains("BadAccess.readUnreadElsewhere(_:)"))
            #endif
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theLogHandlerPrintsEachAccessSiteOnce() {
        let output = LockedList<String>()
        let log = LogViolationHandler { output.append($0) }
        violate(with: log, label: "findings.log")
        let printed = output.elements
        #expect(printed.filter { $0.hasPrefix("Schedulable: Inbox.unread used outside its owner\n") }.count == 1)
        #expect(printed.filter { $0.hasPrefix("Schedulable: also used outside its owner: unread at ") }.count == 1)
        #expect(printed.contains { $0.hasPrefix("Schedulable: Inbox.unread used outside its owner again at ") && $0.contains("BadAccess.readUnread(_:) (2 times so far)\n") })
        #expect(log.count(for: "Inbox.unread") == 5)
    }
}
