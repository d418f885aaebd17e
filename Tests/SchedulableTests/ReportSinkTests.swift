import Dispatch
import Foundation
import Schedulable
import Testing

/// Storm control (exact counts, bounded output, a summary) and the JSON Lines sink.
@Suite("Storm control and JSON Lines")
struct ReportSinkTests {
    private func violation(line: Int = 10, label: String = "com.app.uploads") -> ConfinementViolation {
        ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", objectIdentity: "0x1", member: "enqueue(_:)",
            expectedOwner: "queue \"\(label)\"", actualContext: "main thread",
            ownerBoundAt: CodeLocation(fileID: "App/Upload.swift", line: 4),
            callSite: CodeLocation(fileID: "App/Upload.swift", line: line)
        )
    }

    @Test func aWarnStormPrintsABoundedNumberOfLinesAndCountsEveryViolation() {
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .warn)) { lines.append($0) }
        // 4 threads × 2,500 violations at one site, then one at another.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_500 { handler.handle(violation()) }
        }
        handler.handle(violation(line: 20))
        let output = lines.elements
        let full = PolicyViolationHandler.fullReportsPerSite
        // 16 full reports, then one line at each doubling: 32, 64, …, 8192; and the second site's report.
        #expect(output.filter { $0.contains("\n  member:") }.count == full + 1)
        #expect(output.filter { $0.contains("only each doubling is printed now") }.count == 9)
        #expect(handler.summary == """
            Schedulable: violation summary: 10001 violations at 2 sites
              10000 × UploadQueue.enqueue(_:) at App/Upload.swift:10
              1 × UploadQueue.enqueue(_:) at App/Upload.swift:20

            """)
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theSummaryIsPrintedAtExitWhenReportsWereHeldBack() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "warn", 1)
            useFromAnotherQueue(ownerLabel: "exit.storm", times: 40) { $0.ping() }
            exit(0)   // a normal exit, which runs the atexit handlers (an exit test's own end may not)
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: violation summary: 40 violations at 1 site"))
            #expect(stderr.contains("  40 × Counter.ping() at SchedulableTests/ViolationRecorder.swift:"))
        }
    }

    @Test func eachViolationIsOneLineOfJSONWithEveryReportField() throws {
        let path = NSTemporaryDirectory() + "schedulable-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = JSONLinesViolationHandler(path: path)
        for _ in 0..<100 { sink.handle(violation(label: "evil\n\"label\"\u{7}")) }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 100)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "schedulable.violation")
        #expect(object["version"] as? Int == 4)
        #expect(object["kind"] as? String == "wrongContext")
        #expect(object["tier"] as? String == "assert")
        #expect(object["typeName"] as? String == "UploadQueue")
        #expect(object["member"] as? String == "enqueue(_:)")
        #expect(object["qualifiedMember"] as? String == "UploadQueue.enqueue(_:)")
        #expect(object["expectedOwner"] as? String == "queue \"evil\n\"label\"\u{7}\"")
        let callSite = try #require(object["callSite"] as? [String: Any])
        #expect(callSite["fileID"] as? String == "App/Upload.swift")
        #expect(callSite["line"] as? Int == 10)
        #expect(object.keys.filter { $0 == "path" || $0 == "line" }.isEmpty, "version 4 has no top-level location")
        #expect((object["ownerBoundAt"] as? [String: Any])?["line"] as? Int == 4)
        #expect((object["message"] as? String)?.hasPrefix("Schedulable: UploadQueue.enqueue(_:) used outside its owner") == true)
    }

    @Test(.exitTest) func aFileThatCannotBeOpenedIsReportedAndNothingIsLost() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let sink = JSONLinesViolationHandler(path: "/nonexistent-directory/violations.jsonl")
            sink.handle(ConfinementViolation(
                kind: .wrongContext, tier: .assert, member: "ping()", expectedOwner: "queue \"q\"", actualContext: "main thread"
            ))
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("cannot open \"/nonexistent-directory/violations.jsonl\" for the JSON Lines violation log"))
            #expect(stderr.contains("Schedulable: ping() used outside its owner"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theEnvironmentSinkCollectsEveryDeliveredViolationWithItsLevel() async throws {
        // A path of this process's own: two test runs at once (two checkouts) must not share the file.
        let path = NSTemporaryDirectory() + "schedulable-exit-test-sink-\(getpid()).jsonl"
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(processExitsWith: .success) { [path = path as String] in
            setenv("SCHEDULABLE_CONFINEMENT", "warn,Counter.reset()=off", 1)
            setenv("SCHEDULABLE_CONFINEMENT_JSONL", path, 1)
            useFromAnotherQueue(ownerLabel: "exit.sink", times: 3) { $0.ping() }
            useFromAnotherQueue(ownerLabel: "exit.sink.off") { $0.reset() }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        // reset() is off by its member entry; the `count` it touches is still at the default level.
        #expect(objects.map { $0["qualifiedMember"] as? String }
            == Array(repeating: "Counter.ping()", count: 3) + ["Counter.reset()", "Counter.count"])
        #expect(objects.map { $0["level"] as? String } == ["warn", "warn", "warn", "off", "warn"])
    }
}

/// Reports keep their fixed shape whatever user code names things.
@Suite("Report shape")
struct ReportShapeTests {
    @Test func labelsWithLineBreaksControlCharactersOrGreatLengthAreEscaped() {
        let evil = "com.app\nfake line\r\u{1B}[31mred\u{7}\t\u{2028}end"
        let violation = ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "Type\nWith\nLines", member: "run(\n)",
            expectedOwner: "queue \"\(evil)\"", actualContext: String(repeating: "x", count: 5_000),
            callSite: CodeLocation(fileID: "App/A.swift", line: 1), detail: evil
        )
        let lines = violation.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 7)   // header, object, member, expected owner, actual context, call site, detail
        #expect(lines[0] == "Schedulable: Type\\nWith\\nLines.run(\\n) used outside its owner")
        #expect(lines[3] == "  expected owner:  queue \"com.app\\nfake line\\r\\u{1B}[31mred\\u{7}\\t\\u{2028}end\"")
        #expect(lines[4].hasSuffix("… (4019 more characters)"))
        #expect(lines.allSatisfy { $0.count <= 1_030 })
        #expect(!violation.description.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    /// Each character that must be escaped, alone in an otherwise ordinary line (the check that lets an
    /// ordinary line through unchanged must not let one of them through), and text that needs none.
    @Test(arguments: [("\u{0}", "\\u{0}"), ("\u{7F}", "\\u{7F}"), ("\u{85}", "\\u{85}"), ("\u{9F}", "\\u{9F}"),
                      ("\u{2028}", "\\u{2028}"), ("\u{2029}", "\\u{2029}"), ("é→✓", "é→✓"), ("\u{A0}", "\u{A0}")])
    func everyCharacterThatBreaksALineIsEscaped(character: String, escaped: String) {
        let violation = ConfinementViolation(
            kind: .wrongContext, tier: .assert, member: "run()", expectedOwner: "queue \"a" + character + "b\"",
            actualContext: "main thread"
        )
        let lines = violation.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[2] == "  expected owner:  queue \"a" + escaped + "b\"")
    }

    @Test func anOrdinaryReportIsUnchanged() {
        let violation = ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", member: "enqueue(_:)",
            expectedOwner: "queue \"com.app.uploads\"", actualContext: "main thread"
        )
        #expect(violation.description == """
            Schedulable: UploadQueue.enqueue(_:) used outside its owner
              object:          UploadQueue
              member:          enqueue(_:)
              expected owner:  queue "com.app.uploads"
              actual context:  main thread
            """)
    }
}
