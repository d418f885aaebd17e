import Schedulable
import SchedulableTesting
import Testing

/// The README's construction-window sentence and the Testing article's first example, as tests: a
/// service called at once on the thread that built it passes; published, or once its owner used it,
/// the same call is reported.
@Suite struct FirstFailingTestRecipeTests {
    final class Service: ConfinedObject {
        let confinement: Confinement
        init(owner: SerialQueueScheduler) { confinement = Confinement(owner: owner) }
        func refresh() { assertIsolated() }
    }

    let owner = SerialQueueScheduler(label: "recipe.owner")

    @Test func aServiceCalledOnTheThreadThatBuiltItPassesWhileItIsBeingBuilt() {
        let owner = self.owner
        let violations = collectConfinementViolations {
            let service = Service(owner: owner)
            service.refresh()
        }
        #expect(violations.isEmpty)
    }

    @Test(.requiresDebugChecks) func publishedWithEndConstructionTheSameCallIsReported() {
        let service = Service(owner: owner)
        service.confinement.endConstruction()
        let violations = expectConfinementViolation { service.refresh() }
        #expect(violations.map(\.member) == ["refresh()"])
    }

    @Test(.requiresDebugChecks) func onceTheOwnerUsedItTheSameCallIsReported() {
        let service = Service(owner: owner)
        owner.sync { service.refresh() }
        let violations = expectConfinementViolation { service.refresh() }
        #expect(violations.map(\.member) == ["refresh()"])
    }
}
