import Dispatch
import Schedulable
import Testing

/// The debug-tier wrapper keeps its declaration site in 8 bytes and its given name out of line
/// (`PackedCodeLocation`, `ConfinedPropertyNames`): reports name every property as before, including
/// sites that do not fit the packed form and are interned.
///
/// Only where the debug tier is compiled in: without it `@Confined` stores no site and reports nothing,
/// so there is nothing to test (a release build without `ReleaseChecks` skips the suite, and says so).
@Suite(
    "Declaration sites",
    .enabled(if: ConfinementSystem.debugChecksCompiledIn, "the debug tier is compiled out: no sites, no reports")
)
struct DeclarationSiteTests {
    final class Sites: ConfinedObject, @unchecked Sendable {
        let confinement: Confinement
        /// Packed: the literal's address and the line.
        @Confined(name: "named") var named = 0
        /// A line past the 16-bit field: interned.
        @Confined(name: "farDown", line: 70_000) var farDown = 0
        /// A file literal of one Unicode scalar has no pointer: interned.
        @Confined(file: "x", line: 12) var scalarFile = 0
        /// Both, unnamed: the name comes from the class's fields.
        @Confined(file: "y", line: 65_535) var unnamedInterned = 0

        init(owner: SerialQueueScheduler) {
            confinement = Confinement(owner: owner)
        }
    }

    /// Every property read once from the wrong queue; the violations in order.
    func violations(of sites: Sites, _ read: @escaping @Sendable (Sites) -> Void) -> [ConfinementViolation] {
        let recorder = ViolationRecorder()
        withConfinementViolationHandler(recorder) {
            DispatchQueue(label: "test.sites.intruder").sync { read(sites) }
        }
        return recorder.violations
    }

    @Test func reportsNameTheSiteAndTheGivenName() throws {
        let owner = SerialQueueScheduler(label: "test.sites")
        let sites = Sites(owner: owner)
        owner.sync { _ = sites.named }
        let found = violations(of: sites) { sites in
            _ = sites.named
            _ = sites.farDown
            _ = sites.scalarFile
            _ = sites.unnamedInterned
        }
        try #require(found.count == 4)
        #expect(found.map(\.member) == ["named", "farDown", "scalarFile", "unnamedInterned"])
        #expect(found[0].detail?.hasPrefix("property declared at SchedulableTests/DeclarationSiteTests.swift:") == true)
        #expect(found[1].detail == "property declared at SchedulableTests/DeclarationSiteTests.swift:70000")
        #expect(found[2].detail == "property declared at x:12")
        #expect(found[3].detail == "property declared at y:65535")
    }

    @Test func aSecondObjectReusesTheInternedSitesAndNames() throws {
        let owner = SerialQueueScheduler(label: "test.sites.again")
        let first = Sites(owner: owner), second = Sites(owner: owner)
        owner.sync { _ = first.farDown; _ = second.farDown }
        let found = violations(of: second) { sites in _ = sites.farDown; _ = sites.scalarFile }
        #expect(found.map(\.member) == ["farDown", "scalarFile"])
        #expect(found.map(\.detail) == [
            "property declared at SchedulableTests/DeclarationSiteTests.swift:70000", "property declared at x:12",
        ])
        withExtendedLifetime(first) {}
    }
}
