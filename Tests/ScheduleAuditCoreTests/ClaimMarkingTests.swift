import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("claims: each class claim marked from propose's conclusion")
struct ClaimMarkingTests {
    /// The marking line of one `@unchecked Sendable` class `Cache` whose instances took these steps
    /// (`ClaimsCommandTests.observation`: context ids, step `i` at `App/Cache.swift:10+i`), and the summary.
    static func marking(_ instances: [[Int]], record: String? = nil) throws -> (line: String, summary: String, file: String) {
        let observation = record.map { ClaimsCommandTests.observation(type: "Cache", instances: instances, record: $0) }
            ?? ClaimsCommandTests.observation(type: "Cache", instances: instances)
        let sources = try TemporarySources([
            "Sources/Cache.swift": "final class Cache: @unchecked Sendable {\n    var items = 0\n}\n",
            "obs/run.json": observation,
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        let location = "\(sources.path("Sources/Cache.swift")):1:13: "
        #expect(lines[1].hasPrefix(location))
        return (String(lines[1].dropFirst(location.count)), lines[2], sources.path("obs/run.json"))
    }

    // Contexts: 1 main, 2 scheduler 'com.app.uploads', 3 pool, 4 and 5 tasks.
    @Test(arguments: [
        ([[2], [2]], "note: held: owner: 2 instances, every use on scheduler 'com.app.uploads'"),
        ([[1]], "note: held: main: 1 instance, every use on main thread; this type could be @MainActor"),
        ([[2], [1], [2]], "note: held: first-user: 3 instances, each first used in one context, 2 contexts in all: Confinement.detached()"),
        ([[1, 2], [1, 2]], "note: held: hand-off: 2 instances created on main thread and handed forward, never back: Confinement.transferable(owner:); main thread → scheduler 'com.app.uploads' at App/Cache.swift:11 f()"),
        ([[1, 2], [2]], "warning: contradicted: stray use: used from scheduler 'com.app.uploads' at App/Cache.swift:11 f() after main thread, without a handOff(to:); propose says first-user: 2 instances, each first used in one context, 2 contexts in all: Confinement.detached(); then used from scheduler 'com.app.uploads' at App/Cache.swift:11 f() without a handOff(to:), by 1 of 2 instances: a bug, or a hand-off to write there (then make the record transferable) [FILE]"),
        ([[2], [1, 2, 1]], "warning: contradicted: not-confinable: returns to main thread at App/Cache.swift:12 f() after scheduler 'com.app.uploads' at App/Cache.swift:11 f(): used from both, interleaved; a bug, or state that a lock guards [FILE]"),
        ([[1, 3]], "warning: contradicted: not-confinable: 'items' used from pool 'com.apple.root.default-qos' at App/Cache.swift:11 f(), a concurrent pool that owns nothing; also from main thread at App/Cache.swift:10 f(); a bug, or state that a lock guards [FILE]"),
        ([[4, 5]], "warning: contradicted: not-confinable: used from task 'task 7' at App/Cache.swift:10 f() and task 'task 8' at App/Cache.swift:11 f(), interleaved tasks; a bug, or state that a lock guards [FILE]"),
        ([[2, 4], [2, 4]], "warning: contradicted: not-confinable: moves from scheduler 'com.app.uploads' at App/Cache.swift:10 f() to task 'task 7' at App/Cache.swift:11 f(), which no handOff(to:) can name; hand it to a scheduler instead, or guard it with a lock [FILE]"),
        ([[]], "note: unexercised: insufficient: no kept instance has a step: nothing to judge"),
    ])
    func eachConclusionIsOneMarking(instances: [[Int]], expected: String) throws {
        let marked = try Self.marking(instances)
        #expect(marked.line == expected.replacingOccurrences(of: "FILE", with: marked.file))
        let counts = ClaimMarking.labels.map { "\(expected.contains(": \($0): ") ? 1 : 0) \($0)" }
        #expect(marked.summary == "claims: 1 claim (1 @unchecked Sendable, 0 nonisolated(unsafe), 0 assumeIsolated); marked from 1 observation file: \(counts.joined(separator: ", "))")
    }

    /// A file whose runtime did not state the innermost-serial rule cannot make a claim "held": a use
    /// inside another queue's `sync` on the bound thread was not a step there. What contradicts the
    /// claim still does.
    @Test(arguments: [[[2], [2]], [[1]], [[1, 2], [1, 2]]])
    func evidenceThatCouldNotShowAViolationIsNeverHeld(instances: [[Int]]) throws {
        let sources = try TemporarySources([
            "Sources/Cache.swift": "final class Cache: @unchecked Sendable {\n    var items = 0\n}\n",
            "obs/old.json": ClaimsCommandTests.observation(type: "Cache", instances: instances, resolution: nil),
            "obs/new.json": ClaimsCommandTests.observation(type: "Cache", instances: instances),
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        #expect(lines[1].contains(": note: unexercised: the run could not have shown a violation: \(sources.path("obs/old.json")) was written by a runtime that did not tell a use inside another queue's sync apart from the thread running it (no 'resolution: innermost-serial'); observe again with this version. Propose says "))
        #expect(lines[2].hasSuffix("0 held, 0 contradicted, 1 unexercised, 0 not observable"))
        // The same run with every file stating the rule holds; a contradiction stands either way.
        try FileManager.default.removeItem(atPath: sources.path("obs/old.json"))
        let resolved = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(resolved.standardOutput.contains(": note: held: "))
        try sources.write("obs/old.json", ClaimsCommandTests.observation(type: "Cache", instances: [[2], [1, 2, 1]], resolution: nil))
        let contradicted = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(contradicted.standardOutput.contains(": warning: contradicted: not-confinable: "))
    }

    @Test func aDeclaredOwnerMissedIsContradictedNamingBothSites() throws {
        let record = #"{"kind": "declared", "owner": 2, "boundAt": {"file": "App/Cache.swift", "line": 3}}"#
        let missed = try Self.marking([[1]], record: record)
        #expect(missed.line == "warning: contradicted: declared owner scheduler 'com.app.uploads' (bound at App/Cache.swift:3), but used from elsewhere; what the checks would have reported: 'items' from main thread at App/Cache.swift:10 f() [\(missed.file)]")
        let quiet = try Self.marking([], record: record)
        #expect(quiet.line == "note: unexercised: insufficient: declared owner scheduler 'com.app.uploads' (bound at App/Cache.swift:3); no miss was recorded")
    }

    @Test func aClassNamedInTwoModulesIsMarkedByTheGravestConclusionNamingItsType() throws {
        let shared = ClaimsCommandTests.observation(type: "Cache", instances: [[2], [1, 2, 1]])
        let sources = try TemporarySources([
            "Sources/Cache.swift": "final class Cache: @unchecked Sendable {\n    var items = 0\n}\n",
            "obs/a.json": ClaimsCommandTests.observation(type: "Cache", instances: [[2]]),
            "obs/b.json": shared.replacingOccurrences(of: #""module": "App""#, with: #""module": "Lib""#),
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        #expect(lines[1] == "\(sources.path("Sources/Cache.swift")):1:13: warning: contradicted: 'Lib.Cache': not-confinable: returns to main thread at App/Cache.swift:12 f() after scheduler 'com.app.uploads' at App/Cache.swift:11 f(): used from both, interleaved; a bug, or state that a lock guards [\(sources.path("obs/b.json"))]")
        #expect(lines[2].hasSuffix("marked from 2 observation files: 0 held, 1 contradicted, 0 unexercised, 0 not observable"))
    }

    @Test func everyClaimIsMarkedAndThoseNoRunTestsSayWhy() throws {
        let sources = try TemporarySources([
            "Sources/A.swift": ClaimsCommandTests.sources,
            "one.json": ClaimsCommandTests.observation(type: "Cache", instances: [[2]]),
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("one.json")])
        let path = sources.path("Sources/A.swift")
        let markings = result.standardOutput.split(separator: "\n").filter { !$0.contains(": note: claim: ") }
        let record = "observe mode records uses of recorded class instances, never of a variable"
        #expect(markings == [
            "\(path):3:13: note: held: owner: 1 instance, every use on scheduler 'com.app.uploads'",
            "\(path):17:13: note: unexercised: 'Later' is not in the observation files; observe it ('adopt Later'), then run the tests",
            "\(path):25:5: note: held: owner: 1 instance, every use on scheduler 'com.app.uploads'",
            "\(path):26:5: note: not observable: it holds a struct, which has no Confinement record; \(record)",
            "\(path):27:5: note: not observable: the sources do not declare its type, so no class of theirs with a record holds it; \(record)",
            "\(path):31:15: note: not observable: observe mode records the contexts of confined objects' uses, not actor isolation; assumeIsolated checks this claim itself, trapping where it does not hold",
            "claims: 6 claims (2 @unchecked Sendable, 3 nonisolated(unsafe), 1 assumeIsolated); marked from 1 observation file: 2 held, 0 contradicted, 1 unexercised, 3 not observable",
        ])
    }

    /// A `nonisolated(unsafe)` variable holding a class's instance (by annotation or initializer, the
    /// class `@unchecked Sendable` or not) is marked exactly as a claim of that class would be.
    @Test(arguments: [[[2], [2]], [[2], [1, 2, 1]], [[1, 3]], [[]]])
    func aVariableHoldingAClassIsMarkedAsItsClass(instances: [[Int]]) throws {
        let text = """
            final class Cache: @unchecked Sendable {
                var items = 0
            }
            final class Plain {
                var items = 0
            }
            nonisolated(unsafe) var shared: Cache? = nil
            nonisolated(unsafe) var made = Cache()
            nonisolated(unsafe) var plain = Plain()

            """
        let sources = try TemporarySources([
            "Sources/A.swift": text,
            "obs/a.json": ClaimsCommandTests.observation(type: "Cache", instances: instances),
            "obs/b.json": ClaimsCommandTests.observation(type: "Plain", instances: instances),
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 9)
        // Each marking without its location: the class's, then each variable's.
        let markings = [1, 3, 5, 7].map { lines[$0].split(separator: " ", maxSplits: 1)[1] }
        let classMarking = markings[0].replacingOccurrences(of: sources.path("obs/a.json"), with: "FILE")
        #expect(classMarking.hasPrefix(instances == [[2], [2]] ? "note: held: owner: " : instances == [[]] ? "note: unexercised: insufficient: " : "warning: contradicted: "))
        #expect(markings[1] == markings[0])
        #expect(markings[2] == markings[0])
        #expect(markings[3].replacingOccurrences(of: sources.path("obs/b.json"), with: "FILE") == classMarking)
        #expect(lines[2].contains("nonisolated(unsafe) var 'shared'") && lines[6].contains("var 'plain'"))
    }

    /// `claims` and `propose` over the same files: every type of propose's fixture (one file per conclusion)
    /// declared `@unchecked Sendable`, each marking what that type's conclusion maps to, naming the conclusion.
    @Test func claimsAndProposeNeverDisagree() throws {
        typealias F = ProposeFixture
        let entries = try F.propose([F.observations])
        #expect(Set(entries.values.map(\.conclusion)) == Set(Proposal.Conclusion.allCases))
        let names = entries.keys.sorted()
        let text = names.map { "final class \($0): @unchecked Sendable {\n    var state = 0\n}\n" }.joined()
        let sources = try TemporarySources(["Sources/All.swift": text])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", F.observations])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 2 * names.count + 1)
        for (index, name) in names.enumerated() {
            let entry = try #require(entries[name])
            let line = lines[2 * index + 1]
            let held: Set<Proposal.Conclusion> = [.owner, .main, .firstUser, .handOff]
            let expected = held.contains(entry.conclusion)
                ? (entry.strayMoves.isEmpty ? "note: held: \(entry.conclusion.rawValue): " : "warning: contradicted: stray use: ")
                : entry.conclusion == .insufficient ? "note: unexercised: insufficient: " : "warning: contradicted: "
            #expect(line.contains(":\(3 * index + 1):13: \(expected)"), "\(name) is \(entry.conclusion.rawValue): \(line)")
            #expect(line.contains(entry.evidence[0]), "\(name): the marking carries propose's evidence")
        }
    }
}
