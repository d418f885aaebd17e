import Dispatch
import Foundation
import Testing

@testable import Schedulable

// A use inside the observed type's own code lets go where that code was called from: `letGo` is the
// first frame outside the type, the line after which the audit inserts `handOff(to:)`.

final class LetGoCallerParsed: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    @Confined var words = 0
    func parse() {
        preconditionIsolated()
        words += 1
    }
}

private let thisFile = "SchedulableTests/ObservationLetGoCallerTests.swift"

@Suite("Observation: a use inside the type's own code lets go at its caller")
struct ObservationLetGoCallerTests {
    let network = SerialQueueScheduler(label: "letgo-caller.network")
    let storage = SerialQueueScheduler(label: "letgo-caller.storage")

    init() {
        ConfinementObservations.writesFileAtExit = false
    }

    /// The steps of the one instance `scenario` uses, as the written file has them.
    private func writtenSteps(_ scenario: (LetGoCallerParsed) -> Void) throws -> [[String: Any]] {
        try writtenObservationSteps({ LetGoCallerParsed() }, scenario)
    }

    /// `parse()` touches `words` after its guard: the step into storage lets go at the line that
    /// called `parse()`, not at `words` inside it, every run.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertyUsedInsideAMethodLetsGoAtTheMethodsCaller() throws {
        var answers: [String: Int] = [:]
        for _ in 0..<200 {
            var callLine = 0
            let steps = try writtenSteps { article in
                network.sync {
                    callLine = #line; article.parse()
                }
                storage.sync { article.parse() }
            }
            let letGo = steps.last?["letGo"] as? [String: Any]
            let found = letGo.map { "\($0["fileID"] as? String ?? "?"):\($0["line"] as? Int ?? 0)" } ?? "none"
            answers[found == "\(thisFile):\(callLine)" ? "at the call" : found, default: 0] += 1
        }
        #expect(answers == ["at the call": 200])
    }

    @Test(arguments: [
        ("Article.parse()", "Article", true), ("closure #1 in Article.parse()", "Article", true),
        ("Article.words.setter", "Article", true), ("Cache.put(_:for:)", "Cache<Int>", true),
        ("closure #1 in Fetcher.fetch(_:)", "Article", false), ("ArticleList.add(_:)", "Article", false),
        ("implicit closure #2 in closure #1 in Article.parse()", "Article", true),
    ])
    func aFrameIsTheTypesOwnCodeByItsName(function: String, type: String, own: Bool) {
        #expect(Observation.Site.isCode(function, of: type) == own)
    }
}
