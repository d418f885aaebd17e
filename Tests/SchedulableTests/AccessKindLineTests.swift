import Dispatch
import Schedulable
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every kind of access keeps its line in debug builds. The compiler gives line 0 to the call of a
/// property's `_modify` accessor and to calls in autoclosures; the report takes the line of the
/// statement the call belongs to (`CallStack`'s statement search). Each access is the second
/// statement of its closure, after one on the line before, so neither neighbouring line passes.
@Suite(
    "Access kinds keep their line",
    .enabled(if: isDebugBuild, "optimized builds keep the lines the compiler kept"),
    .disabled(if: underThreadSanitizer, "ThreadSanitizer's instrumentation moves the rows after a call beyond the search")
)
struct AccessKindLineTests {
    /// The line of the one violation `body` makes on a global queue, and its file.
    private func siteOfTheViolation(_ body: @escaping @Sendable (Counter) -> Void) -> (file: String?, line: Int?) {
        let recorder = ViolationRecorder()
        let counter = settledCounter(owner: SerialQueueScheduler(label: "access-kinds"), recorder: recorder)
        DispatchQueue.global().sync { body(counter) }
        let sites = recorder.violations.map(\.accessSite)
        #expect(sites.count == 1)
        return (sites.first??.file, sites.first??.line)
    }

    @Test func compoundAssignment() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let one = 1
            counter.count += one
        }
        #expect(site.line == line)
        #expect(site.file?.hasSuffix("/Tests/SchedulableTests/AccessKindLineTests.swift") == true)
    }

    @Test func compoundAssignmentOfAnArray() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let more = [1, 2]
            counter.items += more
        }
        #expect(site.line == line)
    }

    @Test func mutatingCallThroughTheProperty() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let item = 3
            counter.items.append(item)
        }
        #expect(site.line == line)
    }

    @Test func toggle() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let unused = 0
            counter.flag.toggle()
            _ = unused
        }
        #expect(site.line == line)
    }

    @Test func readInsideAnAutoclosure() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let expected = 0
            requireEqual(counter.count, expected)
        }
        #expect(site.line == line)
    }

    /// A read in a macro's expansion (`#expect`): the debug information puts it in the generated file;
    /// the report puts it on the line that used the macro.
    @Test func readInsideAnExpectation() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let expected = 0
            #expect(counter.count == expected)
        }
        #expect(site.line == line)
        #expect(site.file?.hasSuffix("/Tests/SchedulableTests/AccessKindLineTests.swift") == true)
    }

    /// The members and access-site lines of the violations `body` makes on a global queue with a
    /// published `DerivedService`.
    private func violationsOfAService(
        _ body: @escaping @Sendable (DerivedService) -> Void
    ) -> [(member: String, line: Int?, function: String?)] {
        let recorder = ViolationRecorder()
        let service = withConfinementViolationHandler(recorder) { DerivedService(owner: SerialQueueScheduler(label: "access-kinds.service")) }
        service.confinement.endConstruction()
        DispatchQueue.global().sync { body(service) }
        return recorder.violations.map { ($0.member, $0.accessSite?.line, $0.accessSite?.function) }
    }

    @Test func inheritedProperty() {
        let line = #line + 1
        let violations = violationsOfAService { service in service.started = true }
        #expect(violations.map(\.line) == [line])
        #expect(violations.first?.function?.contains("started") == false)
    }

    @Test func renamedProperty() {
        let line = #line + 1
        let violations = violationsOfAService { service in service.isPaused = true }
        #expect(violations.map(\.member) == ["paused"])
        #expect(violations.map(\.line) == [line])
    }

    @Test func guardInAComputedProperty() {
        let line = #line + 1
        let violations = violationsOfAService { service in _ = service.summary }
        #expect(violations.map(\.member) == ["summary"])
        #expect(violations.map(\.line) == [line])
    }

    /// Two wrappers declared on one line share their site: the report names both, never one guessed.
    @Test func twoDeclarationsOnOneLine() {
        let line = #line + 1
        let violations = violationsOfAService { service in service.right += 1 }
        #expect(violations.map(\.member) == ["left or right"])
        #expect(violations.map(\.line) == [line])
    }

    @Test func plainReadAndWrite() {
        let line = #line + 3
        let site = siteOfTheViolation { counter in
            let value = 4
            counter.count = value
        }
        #expect(site.line == line)
    }
}

/// An assertion-style function whose arguments are autoclosures, as `XCTAssertEqual`'s are.
private func requireEqual(_ lhs: @autoclosure () -> Int, _ rhs: @autoclosure () -> Int) {
    _ = lhs() == rhs()
}

/// Whether this is a debug build (`-Onone`), where every line is kept.
private let isDebugBuild: Bool = {
    #if SCHEDULABLE_DEBUG_BUILD
    return true
    #else
    return false
    #endif
}()

/// A service whose confined state is declared in its superclass.
class BaseService: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var started = false
    @Confined(name: "paused") var isPaused = false
    @Confined var left = 0; @Confined var right = 0

    init(owner: SerialQueueScheduler) { confinement = Confinement(owner: owner) }

    /// A computed property with a method-style guard.
    var summary: String {
        assertIsolated()
        return "started"
    }
}

final class DerivedService: BaseService, @unchecked Sendable {}

