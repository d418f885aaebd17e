import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("ScheduleAuditor on the fixture package")
struct ScheduleAuditorTests {
    struct Expected: Hashable, CustomStringConvertible {
        var kind: AuditFinding.Kind
        var typeName: String
        var member: String
        var line: Int
        var description: String { "\(kind) \(typeName).\(member) @\(line)" }
    }

    static func summary(_ report: AuditReport) -> Set<Expected> {
        Set(report.findings.map { Expected(kind: $0.kind, typeName: $0.typeName, member: $0.member, line: $0.line) })
    }

    @Test func findsProtectableClassesThroughProtocolSuperclassAndRefinement() throws {
        let report = try Fixture.audit()
        #expect(report.module == "AuditFixture")
        // PlainCounter does not adopt the protocol; FlawedSubclass adopts through its superclass,
        // FlawedUploader through UploadService, which refines ConfinedObject.
        #expect(report.protectableTypes == [
            "CleanUploader", "FlawedSubclass", "FlawedUploader", "IncludingUploader", "MovingUploader", "PrivateStateUploader",
        ])
    }

    @Test func reportsExactlyTheFlawsOfTheFixture() throws {
        let report = try Fixture.audit()
        let expected: Set<Expected> = [
            Expected(kind: .staleOptionEntry, typeName: "FlawedUploader", member: ".method(\"reset\")", line: 16),
            Expected(kind: .unprotectedStoredProperty, typeName: "FlawedUploader", member: "attempts", line: 19),
            Expected(kind: .nonSendableReferenceLet, typeName: "FlawedUploader", member: "cache", line: 20),
            Expected(kind: .unguardedMethod, typeName: "FlawedUploader", member: "reset()", line: 22),
            Expected(kind: .unprotectedStoredProperty, typeName: "FlawedSubclass", member: "thumbnails", line: 34),
            Expected(kind: .unguardedMethod, typeName: "FlawedSubclass", member: "describe()", line: 41),
            Expected(kind: .unguardedMethod, typeName: "IncludingUploader", member: "pause()", line: 55),
            Expected(kind: .fixedOwnerChanged, typeName: "MovingUploader", member: "handOff(to:)", line: 71),
            Expected(kind: .unprotectedStoredProperty, typeName: "PrivateStateUploader", member: "retries", line: 79),
            Expected(kind: .unprotectedStoredProperty, typeName: "PrivateStateUploader", member: "lastError", line: 80),
        ]
        #expect(Self.summary(report) == expected)
        #expect(report.findings.allSatisfy { $0.path == Fixture.path("FlawedUploader.swift") })
    }

    @Test func cleanTypeHasNoFindings() throws {
        let report = try Fixture.audit()
        #expect(report.findings.filter { $0.typeName == "CleanUploader" }.isEmpty)
    }

    @Test func staleMethodEntrySuggestsTheLabelledName() throws {
        let stale = try #require(try Fixture.audit().findings.first { $0.kind == .staleOptionEntry })
        #expect(stale.message.contains("did you mean 'reset()'?"))
        #expect(stale.column == 69)  // the string literal, where an editor should put the cursor
    }

    @Test func unguardedMethodNotesHowTheOptionsBearOnIt() throws {
        let findings = try Fixture.audit().findings.filter { $0.kind == .unguardedMethod }
        let pause = try #require(findings.first { $0.member == "pause()" })
        #expect(pause.note?.contains("listed in the include options") == true)
        let reset = try #require(findings.first { $0.member == "reset()" })
        #expect(reset.note?.contains("uses exclude options") == true)
        // FlawedSubclass has no options of its own.
        let describe = try #require(findings.first { $0.member == "describe()" })
        #expect(describe.note == nil)
    }

    /// One opinion with `adopt`: a method whose body is one hop onto a queue (`store`, `value(for:)`,
    /// `removeAll`, `fetchProfile` shapes) is an entry point, and the audit asks no guard for it; the
    /// same method doing its work in place is still reported. Each shape is also one `adopt` refuses.
    @Test(arguments: [
        "queue.sync { attempts = 0 }",
        "return queue.sync { attempts }",
        "queue.async { self.attempts = 0 }",
        "try queue.sync(execute: { attempts = 0 })",
        "Queues.storage.asyncAndWait { attempts = 0 }",
    ])
    func anEntryPointThatHopsIsNotAskedForAGuard(body: String) throws {
        let hop = try Fixture.audit { path, text in
            path.hasSuffix("FlawedUploader.swift") ? text.replacingOccurrences(of: "    func reset() {\n        attempts = 0\n", with: "    func reset() {\n        \(body)\n") : text
        }
        #expect(!hop.findings.contains { $0.kind == .unguardedMethod && $0.member == "reset()" })
        #expect(try Fixture.audit().findings.contains { $0.kind == .unguardedMethod && $0.member == "reset()" })
        let file = SourceFile(path: "A.swift", text: "final class A {\n    func reset() {\n        \(body)\n    }\n}\n")
        let member = try #require(file.member(namedAt: 1, column: 9))
        #expect(AdoptionPlan.skipReason(forMethod: member, in: file)??.contains("an entry point, its body hops onto") == true)
    }

    /// `private` and `fileprivate` members are in the graph without a location (the compiler records
    /// none for declarations invisible outside their file); the audit finds them in the class's body.
    @Test func privateAndFileprivateStoredPropertiesAreReportedAtTheirDeclaration() throws {
        let members = try Fixture.graphs("module").flatMap(\.symbols).filter { $0.pathComponents.first == "PrivateStateUploader" }
        let unlocated = members.filter { $0.location == nil && $0.kind.identifier == "swift.property" }
        #expect(Set(unlocated.map(\.names.title)) == ["retries", "lastError", "pending", "isBusy"])

        let findings = try Fixture.audit().findings.filter { $0.typeName == "PrivateStateUploader" }
        // `@Confined private var pending` is checked; `private var isBusy { … }` is computed.
        #expect(findings.map(\.member) == ["retries", "lastError"])
        #expect(findings.allSatisfy { $0.kind == .unprotectedStoredProperty && $0.path == Fixture.path("FlawedUploader.swift") })
        #expect(findings.map(\.line) == [79, 80])
        #expect(findings.map(\.column) == [17, 21])  // the names, where an editor should put the cursor
        #expect(findings.first?.message.contains("stored property 'retries' of ConfinedObject class 'PrivateStateUploader' is not wrapped in @Confined") == true)
    }

    @Test func aPrivatePropertyCanBeExcludedLikeAnyOther() throws {
        let report = try Fixture.audit { path, text in
            guard path.hasSuffix("FlawedUploader.swift") else { return text }
            return text.replacingOccurrences(
                of: "Confinement(owner: uploads)\n    private var retries",
                with: "Confinement(owner: uploads, options: .exclude(.property(\\PrivateStateUploader.retries)))\n    private var retries"
            )
        }
        // Excluded, and the entry names a member: neither finding remains for `retries`.
        #expect(report.findings.filter { $0.typeName == "PrivateStateUploader" }.map(\.member) == ["lastError"])
    }

    @Test func removingTheSuppressionCommentReportsTheProperty() throws {
        let report = try Fixture.audit { path, text in
            path.hasSuffix("CleanUploader.swift") ? text.replacingOccurrences(of: "schedule-audit:ignore", with: "note") : text
        }
        let clean = report.findings.filter { $0.typeName == "CleanUploader" }
        #expect(clean.map(\.member) == ["createdAt"])
        #expect(clean.map(\.kind) == [.unprotectedStoredProperty])
    }

    @Test func removingAnExclusionReportsTheMembers() throws {
        let report = try Fixture.audit { path, text in
            guard path.hasSuffix("CleanUploader.swift") else { return text }
            return text.replacingOccurrences(of: ".exclude(.property(\\CleanUploader.retries)).excluding(.method(\"cancelAll()\"))", with: ".default")
        }
        let clean = Set(report.findings.filter { $0.typeName == "CleanUploader" }.map(\.member))
        #expect(clean == ["retries", "cancelAll()"])
    }

    @Test func removingAGuardReportsTheMethod() throws {
        let report = try Fixture.audit { path, text in
            path.hasSuffix("CleanUploader.swift") ? text.replacingOccurrences(of: "preconditionIsolated()", with: "()") : text
        }
        #expect(report.findings.filter { $0.typeName == "CleanUploader" }.map(\.member) == ["enqueue(_:)"])
    }

    /// `MovingUploader` (fixed owner, `handOff(to:)` in its own method), with the call or the
    /// declaration respelled on the same lines, so the committed graph's positions still hold.
    static func transferFindings(call: String? = nil, declaration: String? = nil) throws -> [AuditFinding] {
        try Fixture.audit { path, text in
            guard path.hasSuffix("FlawedUploader.swift") else { return text }
            var text = text
            if let call { text = text.replacingOccurrences(of: "handOff(to: uploads)", with: call) }
            if let declaration {
                text = text.replacingOccurrences(of: "let confinement = Confinement(owner: uploads)\n    @Confined var pending = 0\n\n    func moveToBackground", with: "let confinement = \(declaration)\n    @Confined var pending = 0\n\n    func moveToBackground")
            }
            return text
        }.findings.filter { $0.kind == .fixedOwnerChanged }
    }

    @Test func handOffOfAFixedOwnerNamesTheDeclarationAndTheFix() throws {
        let finding = try #require(try Self.transferFindings().first)
        #expect(finding.column == 9)  // `handOff`, the call on the object itself
        #expect(finding.message.contains("declared with a fixed owner (Confinement(owner:) at FlawedUploader.swift:66)"))
        #expect(finding.message.contains("Confinement.transferable(owner:)"))
    }

    @Test(arguments: [
        ("handOff(to: uploads)", ["handOff(to:)"]),
        ("self.handOff(to: uploads)", ["handOff(to:)"]),
        ("self.confinement.detach()", ["detach()"]),
        ("detach(); handOff(to: uploads)", ["detach()", "handOff(to:)"]),
        // Another object's transfer: its type is unknown to a scan.
        ("other.handOff(to: uploads)", []),
        ("other.confinement.handOff(to: uploads)", []),
        ("let handOff = 1", []),
        ("_ = \"handOff(to: uploads)\" // handOff(to: uploads)", []),
    ])
    func transfersOnTheObjectItselfAreFound(call: String, members: [String]) throws {
        #expect(try Self.transferFindings(call: call).map(\.member) == members)
    }

    @Test(arguments: [
        ("Confinement(owner: uploads)", 1),
        ("Confinement.init(owner: uploads)", 1),
        ("Confinement()", 1),
        ("Confinement.transferable(owner: uploads)", 0),
        (".transferable(owner: uploads)", 0),
        ("Confinement.detached()", 0),
        ("makeConfinement()", 0),
    ])
    func onlyAFixedDeclarationMakesATransferAFinding(declaration: String, count: Int) throws {
        #expect(try Self.transferFindings(declaration: declaration).count == count)
    }

    @Test func theSuppressionMarkerSilencesATransfer() throws {
        let findings = try Self.transferFindings(call: "confinement.handOff(to: uploads) // schedule-audit:ignore")
        #expect(findings.isEmpty)
    }

    /// The fixture's graph with every `@Confined` attribute of `CleanUploader` respelled as `attribute`
    /// names it (identifier and spelling), then audited with the fixture's sources.
    static func auditRespellingConfined(as attribute: (usr: String, spelling: String)) throws -> AuditReport {
        var graphs = try Fixture.graphs("module")
        for graph in graphs.indices {
            for symbol in graphs[graph].symbols.indices where graphs[graph].symbols[symbol].pathComponents.first == "CleanUploader" {
                graphs[graph].symbols[symbol].declarationFragments = graphs[graph].symbols[symbol].declarationFragments?.map {
                    guard $0.kind == "attribute", $0.spelling == "Confined" else { return $0 }
                    var fragment = $0
                    (fragment.preciseIdentifier, fragment.spelling) = (attribute.usr, attribute.spelling)
                    return fragment
                }
            }
        }
        return ScheduleAuditor(moduleGraphs: graphs, contextGraphs: try Fixture.graphs("context"), readSource: Fixture.reader()).run()
    }

    /// `@ScheduleProtected var x` appears in a graph under the typealias's own identifier (as the
    /// compiler prints it), not `Confined`'s; the audit must still count the property as wrapped.
    @Test func scheduleProtectedAliasCountsAsWrapped() throws {
        let report = try Self.auditRespellingConfined(as: ("s:11Schedulable17ScheduleProtecteda", "ScheduleProtected"))
        #expect(report.findings.filter { $0.typeName == "CleanUploader" }.isEmpty)
        // The respelling reached the graph: an attribute the audit does not know leaves the same
        // properties unwrapped.
        let unknown = try Self.auditRespellingConfined(as: ("s:7Fixture9PublishedV", "Published"))
        let reported = unknown.findings.filter { $0.typeName == "CleanUploader" }
        #expect(Set(reported.map(\.member)) == ["pending", "isPaused", "progress"])
        #expect(reported.allSatisfy { $0.kind == .unprotectedStoredProperty })
    }

    /// A `let` holding a class of another module that adopts `ConfinedObject` is not reported: that
    /// object checks itself (RunningTheAudit, "Not audited"). The other module's graph says so; without
    /// it, the audit cannot know, and says which module's graph it lacks.
    @Test func aLetOfAnotherModulesConfinedClassIsNotReportedWhenItsGraphIsGiven() throws {
        let other = try SymbolGraph(jsonData: Data(#"""
            {"module": {"name": "Engines"}, "relationships": [{"kind": "conformsTo", "source": "s:7Engines6EngineC", "target": "s:11Schedulable14ConfinedObjectP"}],
             "symbols": [{"kind": {"identifier": "swift.class"}, "identifier": {"precise": "s:7Engines6EngineC"}, "pathComponents": ["Engine"],
                          "names": {"title": "Engine"}, "accessLevel": "public"}]}
            """#.utf8))
        var graphs = try Fixture.graphs("module")
        for graph in graphs.indices {
            for symbol in graphs[graph].symbols.indices where graphs[graph].symbols[symbol].pathComponents == ["FlawedUploader", "cache"] {
                graphs[graph].symbols[symbol].declarationFragments = graphs[graph].symbols[symbol].declarationFragments?.map { fragment in
                    var fragment = fragment
                    if fragment.kind == "typeIdentifier" { (fragment.spelling, fragment.preciseIdentifier) = ("Engine", "s:7Engines6EngineC") }
                    return fragment
                }
            }
        }
        let audit = { (context: [SymbolGraph]) in
            ScheduleAuditor(moduleGraphs: graphs, contextGraphs: context, readSource: Fixture.reader()).run().findings.filter { $0.member == "cache" }
        }
        #expect(try audit(Fixture.graphs("context") + [other]).isEmpty)
        let without = try #require(try audit(Fixture.graphs("context")).first)
        #expect(without.kind == .nonSendableReferenceLet)
        #expect(without.message.contains("'Engine', a class from module 'Engines' that the audit cannot show to be Sendable"))
    }

    @Test func withoutDependencyGraphsSchedulableClassesCannotBeShownSendable() throws {
        // `let scheduler = uploads` holds a SerialQueueScheduler: Sendable, but only Schedulable's graph says so.
        let report = try Fixture.audit(context: false)
        let scheduler = try #require(report.findings.first { $0.member == "scheduler" })
        #expect(scheduler.kind == .nonSendableReferenceLet)
        #expect(scheduler.message.contains("from module 'Schedulable'"))
    }

    @Test func unreadableSourcesSkipBodyChecksButKeepGraphFacts() throws {
        // Without sources the audit cannot see bodies or option literals: no method or option
        // findings, and stored/computed falls back to the declaration (`{ get }` marks computed,
        // except for `lazy`). Private members, which only the source locates, are not seen either.
        let report = ScheduleAuditor(
            moduleGraphs: try Fixture.graphs("module"), contextGraphs: try Fixture.graphs("context"),
            readSource: { _ in nil }
        ).run()
        #expect(Set(report.findings.map(\.member)) == ["attempts", "cache", "thumbnails", "retries", "createdAt"])
        #expect(report.protectableTypes.count == 6)
    }
}
