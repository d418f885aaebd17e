import CSchedulableContext
import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// A service as the README writes one: `@Confined` state, a method guarded with `assertIsolated()`.
final class PausableService: ConfinedObject {
    let confinement: Confinement
    @Confined var isPaused = false
    @Confined var pending = 0

    /// The line that binds the service: where a failure points when no line of the access is known.
    static let bindLine = #line + 5

    /// Binds the service and lets the owner use it once (ends the construction window, in release
    /// builds too: an always-on check).
    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
        owner.sync { self.preconditionIsolated("init(owner:)") }
    }

    /// The line of `togglePause()`'s guard: the reports' call site, not the failure's location.
    static let toggleGuardLine = #line + 3

    func togglePause() {
        assertIsolated()
        isPaused.toggle()
    }
}

// Used from the wrong threads on purpose.
extension PausableService: @unchecked Sendable {}

/// Runs `callback` on a global-queue thread and waits for it: the completion handler on the wrong
/// queue. The callback goes to libdispatch as it is, so an optimized build cannot inline it into a
/// helper of this file.
func runOnGlobalQueue(_ callback: @escaping @Sendable () -> Void) {
    let done = DispatchGroup()
    DispatchQueue.global().async(group: done, execute: callback)
    done.wait()
}

/// One bug, one failure, at the line that made it (issue 35): the violations of one object from one
/// wrong context are one failure, located at the first one's failure site — for a method guard the
/// line that called it — listing every access in order. XCTest's side is in OneFailurePerBugXCTests.
@Suite struct OneFailurePerBugTests {
    static let repetitions = 200
    let owner = SerialQueueScheduler(label: "one-failure.owner")

    /// (a) A wrong call from the test's task, then a read in `#expect`: with the trait, one issue at the
    /// calling line, listing the guard, the property the method touched and the read.
    @Test(.requiresDebugChecks) func aWrongCallThenAReadIsOneIssueAtTheCallingLineWithTheTrait() async throws {
        for run in 0..<Self.repetitions {
            let service = PausableService(owner: owner)
            let callLine = #line + 4
            let issues = try await TestIssueCapture.capturing { _ in
                try await ConfinementCheckedTrait.withTestScope(testName: "one-failure (a)", testLocation: #_sourceLocation) {
                    // Made before the scope: on the test's task the scope claims it all the same.
                    service.togglePause()
                    #expect(service.isPaused)
                }
            }
            try #require(issues.count == 1, "run \(run): \(issues.map(\.comment))")
            #expect(issues[0].sourceLocation.filePath == #filePath, "run \(run)")
            #expect(issues[0].sourceLocation.line == callLine, "run \(run)")
            let comment = issues[0].comment
            #expect(comment.contains("accesses:        3, all of this object from this context, in order:"), "\(comment)")
            #expect(accessLines(comment).map(\.member) == ["togglePause()", "isPaused", "isPaused"], "\(comment)")
            #expect(comment.contains("guard at SchedulableTestingTests/OneFailurePerBugTests.swift:\(PausableService.toggleGuardLine)"))
            #expect(!comment.contains("detected:        off the test's task"), "\(comment)")
            // Both sides, one line each: the owner queue runs nothing; the intruder is the test's task.
            #expect(comment.contains("\n  owner was:       idle\n") || !csched_dispatch_reader_confirmed(), "\(comment)")
            #expect(comment.contains("\n  intruder:        task ") || comment.contains("\n  intruder:        a task without a name"), "\(comment)")
        }
    }

    /// (a) Without the trait (this binary links SchedulableTesting): one failure, recorded at once at
    /// the calling line; the later accesses are warnings, never a second failure.
    @Test(.requiresDebugChecks) func aWrongCallThenAReadIsOneFailureAtTheCallingLineWithoutATrait() throws {
        for run in 0..<Self.repetitions {
            let service = PausableService(owner: owner)
            let callLine = #line + 2
            let issues = TestIssueCapture.capturing { _ in
                service.togglePause()
                #expect(service.isPaused)
            }
            let failures = issues.filter { $0.severity == .error }
            try #require(failures.count == 1, "run \(run): \(issues.map(\.comment))")
            #expect(failures[0].sourceLocation.filePath == #filePath, "run \(run)")
            #expect(failures[0].sourceLocation.line == callLine, "run \(run)")
            #if SCHEDULABLE_DEBUG_BUILD
            // The column too, where the debug information has it: the called method's name.
            let expectedColumn = try column(of: "togglePause()", onLine: callLine)
            #expect(failures[0].sourceLocation.column == expectedColumn, "run \(run)")
            #endif
            #expect(failures[0].comment.hasPrefix("Schedulable: PausableService.togglePause() used outside its owner"))
            let warnings = issues.filter { $0.severity == .warning }
            #expect(warnings.count == 2, "run \(run): the toggle and the read, each once")
            #expect(warnings.allSatisfy { $0.comment.hasPrefix("Schedulable: also used outside its owner: isPaused at ") })
        }
    }

    /// (b) A callback on a global queue touching two properties: with the trait, one issue, both sites
    /// listed in order, located at the first.
    @Test(.requiresDebugChecks) func aCallbackTouchingTwoPropertiesIsOneIssueWithTheTrait() async throws {
        for run in 0..<Self.repetitions {
            let firstLine = #line + 6
            let issues = try await TestIssueCapture.capturing { _ in
                try await ConfinementCheckedTrait.withTestScope(testName: "one-failure (b)", testLocation: #_sourceLocation) {
                    let service = PausableService(owner: owner)
                    // Separate statements, so each access has a line of its own in every build.
                    runOnGlobalQueue {
                        service.pending = 1
                        service.isPaused = true
                    }
                }
            }
            try #require(issues.count == 1, "run \(run): \(issues.map(\.comment))")
            let comment = issues[0].comment
            let accesses = accessLines(comment)
            #expect(accesses.map(\.member) == ["pending", "isPaused"], "run \(run): \(comment)")
            #expect(accesses.map(\.line) == callbackAccessLines([firstLine, firstLine + 1]), "run \(run): \(comment)")
            #expect(issues[0].sourceLocation.filePath == #filePath, "run \(run)")
            #expect(issues[0].sourceLocation.line == callbackFailureLine(firstLine), "run \(run)")
            #expect(comment.contains("detected:        off the test's task; recorded when the test case ended"))
        }
    }

    /// (b) Without the trait: one failure at the first access, recorded before the callback goes on;
    /// the second property is a warning naming its site.
    @Test(.requiresDebugChecks) func aCallbackTouchingTwoPropertiesIsOneFailureWithoutATrait() throws {
        for run in 0..<Self.repetitions {
            let service = PausableService(owner: owner)
            let firstLine = #line + 3
            let issues = TestIssueCapture.capturing { _ in
                runOnGlobalQueue {
                    service.pending = 1
                    service.isPaused = true
                }
            }
            let failures = issues.filter { $0.severity == .error }
            try #require(failures.count == 1, "run \(run): \(issues.map(\.comment))")
            #expect(failures[0].sourceLocation.filePath == #filePath, "run \(run)")
            #expect(failures[0].sourceLocation.line == callbackFailureLine(firstLine), "run \(run)")
            let warnings = issues.filter { $0.severity == .warning }
            try #require(warnings.count == 1, "run \(run)")
            #expect(warnings[0].sourceLocation.line == callbackFailureLine(firstLine + 1), "run \(run)")
            #expect(warnings[0].comment.hasPrefix("Schedulable: also used outside its owner: isPaused at "))
        }
    }

    /// Two objects, or one object from two contexts, are two bugs: two issues.
    @Test(.requiresDebugChecks) func twoObjectsAreTwoIssues() async throws {
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait.withTestScope(testName: "one-failure (two)", testLocation: #_sourceLocation) {
                let first = PausableService(owner: owner)
                let second = PausableService(owner: owner)
                runOnGlobalQueue {
                    first.pending = 1
                    second.pending = 1
                    first.isPaused = true
                }
                first.pending = 2
            }
        }
        try #require(issues.count == 3, "\(issues.map(\.comment))")
        #expect(accessLines(issues[0].comment).map(\.member) == ["pending", "isPaused"])
        #expect(accessLines(issues[1].comment).isEmpty, "one access: the report alone")
        #expect(issues[2].comment.contains("PausableService.pending used outside its owner"))
    }
}

/// The 1-based column of `text` on line `line` of this file.
func column(of text: String, onLine line: Int, in file: String = #filePath) throws -> Int {
    let source = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let found = try #require(source[line - 1].range(of: text))
    return source[line - 1].distance(from: source[line - 1].startIndex, to: found.lowerBound) + 1
}

/// The numbered access lines of a grouped report: member and line (0 where the line is unknown).
func accessLines(_ report: String) -> [(member: String, line: Int)] {
    report.split(separator: "\n").compactMap { line in
        guard let match = line.firstMatch(of: /^ {19}\d+\. (\S+)(?: called)?(?: at [^:]*:(\d+))?/) else { return nil }
        return (String(match.1), match.2.flatMap { Int($0) } ?? 0)
    }
}

/// Where the failure for an access made in a callback that libdispatch calls points: the access's
/// line in a debug build. An optimized build keeps no line for it (measured with the ReleaseChecks
/// trait on Linux: the callback's frame has no line), so the failure falls back to where the object
/// was bound — Testing.md says so.
func callbackFailureLine(_ accessLine: Int) -> Int {
    #if SCHEDULABLE_DEBUG_BUILD
    return accessLine
    #else
    return PausableService.bindLine
    #endif
}

/// The lines a grouped report gives callback accesses: theirs in a debug build, none in an optimized one.
func callbackAccessLines(_ lines: [Int]) -> [Int] {
    #if SCHEDULABLE_DEBUG_BUILD
    return lines
    #else
    return lines.map { _ in 0 }
    #endif
}
