import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// The routing rules behind every helper, checked on the collector itself.
@Suite(.requiresDebugChecks) struct ConfinementViolationCollectorTests {
    let owner = SerialQueueScheduler(label: "collector-tests.owner")

    private func makeCollector(_ name: String, late: LateLog) -> ConfinementViolationCollector {
        ConfinementViolationCollector(scopeDescription: name, reportLate: { late.append($0) })
    }

    /// Test A's object, misused on test B's task, is A's violation: it must fail A and never B.
    @Test func aViolationBelongsToTheObjectsScopeEvenOnAnotherScopesTask() {
        let late = LateLog()
        let a = makeCollector("A", late: late)
        let b = makeCollector("B", late: late)
        let counter = a.withScope { Counter(owner: owner) }
        b.withScope { counter.increment() }
        #expect(a.finish().map(\.qualifiedMember) == ["Counter.increment()"])
        #expect(b.finish().isEmpty)
        #expect(late.count == 0)
    }

    @Test func aViolationAfterTheScopeEndedGoesToTheLateReport() {
        let late = LateLog()
        let scope = makeCollector("A", late: late)
        let counter = scope.withScope { Counter(owner: owner) }
        #expect(scope.finish().isEmpty)
        onBackgroundThread { counter.increment() }
        #expect(late.count == 1)
    }

    /// Off every task, while a nested scope runs, the nested scope's body is what runs: it claims the
    /// violation of the outer scope's object.
    @Test func aNestedScopeClaimsTheOuterScopesViolationsDetectedOffTask() {
        let late = LateLog()
        let outer = makeCollector("outer", late: late)
        let (inner, counter) = outer.withScope {
            (makeCollector("inner", late: late), Counter(owner: owner))
        }
        inner.withScope { onBackgroundThread { counter.increment() } }
        #expect(inner.finish().count == 1)
        // Once the nested scope ended, the outer scope gets them again.
        onBackgroundThread { counter.increment() }
        #expect(outer.finish().count == 1)
        #expect(late.count == 0)
    }

    /// A late violation a finished child forwards to its parent happened after that child's body, so a
    /// later child that happens to be running must not claim it.
    @Test func aForwardedLateViolationIsNotClaimedByALaterChild() {
        let outer = ConfinementViolationCollector(scopeDescription: "outer", reportLate: { _ in })
        let (first, second): (ConfinementViolationCollector, ConfinementViolationCollector) = outer.withScope {
            let first = ConfinementViolationCollector(
                scopeDescription: "first", reportLate: { outer.receive($0, allowsDelegation: false) }
            )
            let second = ConfinementViolationCollector(scopeDescription: "second", reportLate: { _ in })
            return (first, second)
        }
        let counter = first.withScope { Counter(owner: owner) }
        #expect(first.finish().isEmpty)
        second.withScope { onBackgroundThread { counter.increment() } }
        #expect(second.finish().isEmpty)
        #expect(outer.finish().count == 1)
    }
}

final class LateLog: Sendable {
    private let violations = LockedValue<[ConfinementViolation]>([])
    func append(_ violation: ConfinementViolation) { violations.withLock { $0.append(violation) } }
    var count: Int { violations.withLock { $0.count } }
}
