import Dispatch
import Foundation
import Testing

@testable import Schedulable

// A step into a new context says where the previous one let go (`letGo`): the site of the instance's
// most recent use there, as `site` is found (a method's caller, a property's access). What the audit
// needs to insert `handOff(to:)` where a run proved the move. Each test observes a type of its own.

private final class LetGo<Tag>: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    @Confined var value = 0
    func touch() { preconditionIsolated() }
}

private enum ByMethod {}
private enum ByProperty {}
private enum AfterHandOff {}

private let thisFile = "SchedulableTests/ObservationLetGoTests.swift"

@Suite("Observation: where the previous context let go")
struct ObservationLetGoTests {
    let first = SerialQueueScheduler(label: "letgo.first")
    let second = SerialQueueScheduler(label: "letgo.second")
    let third = SerialQueueScheduler(label: "letgo.third")

    init() {
        ConfinementObservations.writesFileAtExit = false
    }

    /// The steps of the one `LetGo<Tag>` instance `scenario` uses, as the written file has them.
    private func writtenSteps<Tag>(_: Tag.Type, _ scenario: (LetGo<Tag>) -> Void) throws -> [[String: Any]] {
        try writtenObservationSteps({ LetGo<Tag>() }, scenario)
    }

    /// `letGo`'s file and line, or `nil` when the step has none.
    private func letGo(_ step: [String: Any]) -> String? {
        guard let site = step["letGo"] as? [String: Any] else { return nil }
        return "\(site["fileID"] as? String ?? "?"):\(site["line"] as? Int ?? 0)"
    }

    /// A method used twice in the first queue, at two lines, then in the second: the step into the
    /// second names the later line (the guard's caller), every run.
    @Test func aStepNamesTheMostRecentUseOfTheContextItLeaves() throws {
        var answers: [String: Int] = [:]
        for _ in 0..<200 {
            var lastLine = 0
            let steps = try writtenSteps(ByMethod.self) { service in
                first.sync { service.touch() }
                first.sync {
                    lastLine = #line; service.touch()
                }
                second.sync { service.touch() }
            }
            #expect(steps.count == 2)
            #expect(steps.first.map(letGo) == .some(nil))
            let expected = "\(thisFile):\(lastLine)"
            answers[steps.last.flatMap(letGo) == expected ? "at the last use" : "\(steps.last.flatMap(letGo) ?? "none")", default: 0] += 1
        }
        #expect(answers == ["at the last use": 200])
    }

    /// A property's let-go site is its access, as its `site` is.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertysLetGoIsItsAccess() throws {
        var answers: [String: Int] = [:]
        for _ in 0..<200 {
            var accessLine = 0
            let steps = try writtenSteps(ByProperty.self) { service in
                first.sync {
                    accessLine = #line; service.value += 1
                }
                second.sync { _ = service.value }
            }
            #expect(steps.count == 2)
            let found = steps.last.flatMap(letGo)
            answers[found == "\(thisFile):\(accessLine)" ? "at the access" : found ?? "none", default: 0] += 1
        }
        #expect(answers == ["at the access": 200])
    }

    /// A hand-off's step has no `letGo`, and neither has the next step when the new owner never used
    /// the object (its previous context's last use was before the hand-off); once it has, it has.
    @Test func aHandOffStepAndAnUnusedOwnerHaveNone() throws {
        var answers: [String: Int] = [:]
        for _ in 0..<200 {
            var usedLine = 0
            let unused = try writtenSteps(AfterHandOff.self) { service in
                first.sync { service.touch() }
                first.sync { service.handOff(to: second) }
                third.sync { service.touch() }
            }
            let used = try writtenSteps(AfterHandOff.self) { service in
                first.sync { service.touch() }
                first.sync { service.handOff(to: second) }
                second.sync {
                    usedLine = #line; service.touch()
                }
                third.sync { service.touch() }
            }
            let answer = [
                unused.map { "\($0["member"] as? String ?? "?") \(letGo($0) ?? "-")" }.joined(separator: ", "),
                used.last.flatMap(letGo) == "\(thisFile):\(usedLine)" ? "at the new owner's use" : "elsewhere",
            ]
            answers[answer.joined(separator: " | "), default: 0] += 1
        }
        #expect(answers == ["touch() -, handOff(to:) -, touch() - | at the new owner's use": 200])
    }
}
