import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("apply: diagnostics, the dry-run diff and --apply")
struct ApplyCommandTests {
    typealias F = ProposeFixture

    /// Proposes from every conclusion fixture into a temporary file; returns it and a fresh copy of the sources.
    static func prepare() throws -> (proposal: String, sources: URL) {
        let sources = try F.sourcesCopy()
        let proposal = sources.deletingLastPathComponent().appendingPathComponent("proposal.json").path
        let result = AuditCommand.main(arguments: ["propose", F.observations, "--output", proposal])
        #expect(result.status == 0, "\(result.standardError)")
        return (proposal, sources)
    }

    static func text(_ sources: URL, _ file: String) throws -> String {
        try String(contentsOf: sources.appendingPathComponent("App/\(file)"), encoding: .utf8)
    }

    @Test func dryRunPrintsDiagnosticsAndTheDiffAndChangesNothing() throws {
        let (proposal, sources) = try Self.prepare()
        let before = try Self.text(sources, "UploadQueue.swift")
        let result = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path])
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutput
        let upload = sources.path + "/App/UploadQueue.swift"
        #expect(out.contains("\(upload):4:23: warning: 'App.UploadQueue' has one owner in every observed instance, scheduler 'com.app.uploads': declare it [owner]\n"))
        #expect(out.contains("\(upload):4:23: note: fix-it: replace 'Confinement.observed()' with 'Confinement(owner: uploads)'\n"))
        #expect(out.contains("""
            --- \(upload)
            +++ \(upload)
            @@ -1,7 +1,7 @@
             import Schedulable
             
             final class UploadQueue: ConfinedObject {
            -    let confinement = Confinement.observed()
            +    let confinement = Confinement(owner: uploads)
                 @Confined var pending: [String] = []
             
                 func enqueue(_ name: String) {

            """))
        #expect(out.hasSuffix("schedule-audit apply: 5 edits in 5 files (dry run; pass --apply to write them)\n"))
        #expect(try Self.text(sources, "UploadQueue.swift") == before)
    }

    @Test func everyConclusionGetsItsFixItOrWarning() throws {
        let (proposal, sources) = try Self.prepare()
        let out = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path]).standardOutput
        let app = sources.path + "/App/"
        // main: Confinement() and @MainActor, in the file under Models/ that `App/ProfileModel.swift` names.
        #expect(out.contains("\(app)Models/ProfileModel.swift:4:36: note: this type could be @MainActor\n"))
        #expect(out.contains("+    let confinement: Confinement = Confinement()  // owner unknown yet\n"))
        #expect(out.contains("+    let confinement = Confinement.detached()\n"))
        // hand-off: a static member is spelled with its type, and the move's site gets the handOff note.
        #expect(out.contains("+    let confinement = Confinement.transferable(owner: Services.network)\n"))
        #expect(out.contains("\(app)Download.swift:9:1: note: hand 'App.Download' from scheduler 'com.app.network' to scheduler 'com.app.disk' before this first use there: <object>.handOff(to: Services.disk)\n"))
        // not-confinable and contradicted: warnings with both sites as notes, and no edit.
        #expect(out.contains("\(app)Cache.swift:4:23: warning: 'App.Cache' is not confinable as written: returns to main thread"))
        #expect(out.contains("\(app)Views.swift:5:1: note: 'App.Cache' used from main thread here ('entries')\n"))
        #expect(out.contains("\(app)Ledger.swift:4:23: warning: 'App.Ledger' is declared owned by scheduler 'com.app.uploads', but was used from 1 other context (what the checks would report) [contradicted]\n"))
        #expect(out.contains("\(app)Views.swift:4:1: note: 'total' of 'App.Ledger' used from main thread here\n"))
        #expect(out.contains("\(app)Prefetcher.swift:4:23: note: 'App.Prefetcher': not enough evidence to propose an owner [insufficient]\n"))
        for unchanged in ["Cache.swift", "Ledger.swift", "Prefetcher.swift"] {
            #expect(!out.contains("+++ \(app)\(unchanged)"))
        }
    }

    @Test func aStrayMoveIsAWarningAtItsSiteAndTheOwnerIsStillProposed() throws {
        let sources = try F.sourcesCopy()
        let proposal = sources.deletingLastPathComponent().appendingPathComponent("merged.json").path
        #expect(AuditCommand.main(arguments: ["propose", F.merge, "--output", proposal]).status == 0)
        let out = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path]).standardOutput
        #expect(out.contains("+    let confinement = Confinement(owner: Services.network)\n"))
        #expect(out.contains("\(sources.path)/App/Download.swift:9:1: warning: 'App.Download' is used from scheduler 'com.app.disk' here, after scheduler 'com.app.network', without a handOff(to:): the proposed record reports this use; a bug, or a hand-off to write (<object>.handOff(to: Services.disk) and a transferable record)\n"))
    }

    @Test func aMissingVariableGetsAPlaceholderCommentNotAGuess() throws {
        let (proposal, sources) = try Self.prepare()
        let out = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path]).standardOutput
        #expect(out.contains("Renderer.swift:4:23: warning: 'App.Renderer': no 'let' or 'var' initialised with SerialQueueScheduler(label: \"com.app.frames\") or ThreadScheduler(label: \"com.app.frames\") in the sources; a placeholder comment marks the line\n"))
        #expect(out.contains("+    let confinement = Confinement.observed() /* schedule-audit: owner not named: no 'let' or 'var'"))
    }

    @Test func applyEditsOnlyThoseLinesAndASecondRunChangesNothing() throws {
        let (proposal, sources) = try Self.prepare()
        let before = try Self.text(sources, "UploadQueue.swift")
        let result = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path, "--apply"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("schedule-audit apply: 5 edits in 5 files written\n"))
        #expect(!result.standardOutput.contains("+++ "))
        let after = try Self.text(sources, "UploadQueue.swift")
        #expect(after == before.replacingOccurrences(of: "Confinement.observed()", with: "Confinement(owner: uploads)"))
        #expect(try Self.text(sources, "Download.swift").contains("let confinement = Confinement.transferable(owner: Services.network)\n"))
        #expect(try Self.text(sources, "Renderer.swift").contains("Confinement.observed() /* schedule-audit: owner not named:"))
        // The rewritten lines no longer hold the expression: a stale proposal is refused, nothing written.
        let again = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path, "--apply"])
        #expect(again.status == AuditCommand.exitFindings)
        #expect(again.standardOutput.contains("UploadQueue.swift:4:23: error: 'App.UploadQueue': line 4 no longer contains 'Confinement.observed(' on one line (the sources changed since the run?); not edited\n"))
        #expect(again.standardOutput.contains("Renderer.swift:4:23: note: the placeholder is already there; no edit\n"))
        #expect(again.standardOutput.hasSuffix("nothing written: an edit was refused (see the errors above); propose again from a run of these sources\n"))
        #expect(try Self.text(sources, "UploadQueue.swift") == after)
    }

    @Test func aMissingFileIsSaidAndNotEdited() throws {
        let (proposal, sources) = try Self.prepare()
        try FileManager.default.removeItem(at: sources.appendingPathComponent("App/Connection.swift"))
        let result = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("App/Connection.swift:4:1: warning: 'App.Connection': cannot find 'App/Connection.swift' under '\(sources.path)' (looked in its module's folder 'App'); no edit\n"))
        #expect(result.standardOutput.hasSuffix("4 edits in 4 files (dry run; pass --apply to write them)\n"))
    }

    @Test func anAmbiguousFileIsSaidAndNotEdited() throws {
        let (proposal, sources) = try Self.prepare()
        let nested = sources.appendingPathComponent("App/Legacy")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sources.appendingPathComponent("App/Connection.swift"), to: nested.appendingPathComponent("Connection.swift"))
        let out = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path]).standardOutput
        #expect(out.contains("App/Connection.swift:4:1: warning: 'App.Connection': 'App/Connection.swift' matches several files: \(sources.path)/App/Connection.swift, \(sources.path)/App/Legacy/Connection.swift; no edit\n"))
        #expect(!out.contains("+++ \(sources.path)/App/Connection.swift"))
        #expect(!out.contains("+++ \(sources.path)/App/Legacy/Connection.swift"))
    }

    @Test func variablesAreFoundWhereARecordCanNameThem() {
        let source = """
            let top = SerialQueueScheduler(label: "top")
            enum Outer {
                enum Inner { static let deep = ThreadScheduler(label: "deep") }
                static let twice = SerialQueueScheduler(label: "twice")
            }
            extension Outer.Inner { static let extended = SerialQueueScheduler(label: "extended") }
            var twiceToo = SerialQueueScheduler(label: "twice")
            final class Holder {
                let instance = SerialQueueScheduler(label: "instance")
                func make() { let local = SerialQueueScheduler(label: "local"); _ = local }
            }
            let notAScheduler = DispatchQueue(label: "queue")
            // let commented = SerialQueueScheduler(label: "comment")
            """
        let index = SchedulerDeclarations(files: [SourceFile(path: "S.swift", text: source)])
        func spelling(_ label: String) -> String? {
            if case .found(let spelling, _) = index.lookup(label: label) { return spelling }
            return nil
        }
        #expect(spelling("top") == "top")
        #expect(spelling("deep") == "Outer.Inner.deep")
        #expect(spelling("extended") == "Outer.Inner.extended")
        #expect(index.lookup(label: "twice") == .notFound("2 variables hold a scheduler labelled 'twice': 'Outer.twice' (S.swift:4), 'twiceToo' (S.swift:7); pick one"))
        #expect(index.lookup(label: "instance") == .notFound("'instance' (S.swift:9) holds it, but as an instance property or a local, which the record's initializer cannot name; make it a global or a static member"))
        #expect(spelling("local") == nil)
        #expect(spelling("queue") == nil)
        #expect(spelling("comment") == nil)
    }

    /// A class shared under a lock is named with its lock where `apply` says it is not confinable; a
    /// queue is an owner, not a lock, and a class without a lock gets no such note.
    @Test func aNotConfinableClassNamesItsLock() {
        let file = SourceFile(path: "S.swift", text: """
            final class Stats: @unchecked Sendable {
                let confinement = Confinement.observed()
                private let lock = NSLock()
                private var state: OSAllocatedUnfairLock<Int>
                private let queue = DispatchQueue(label: "stats")
                static let shared = NSRecursiveLock()
                var hits = 0
            }
            final class Plain {
                let confinement = Confinement.observed()
                var hits = 0
            }
            """)
        #expect(file.lockMembers(ofClassAt: 1) == ["'lock' (NSLock)", "'state' (OSAllocatedUnfairLock)"])
        #expect(file.lockMembers(ofClassAt: 9).isEmpty)
    }

    /// A `queue` context (a raw serial DispatchQueue) is named by the global or static `let` that
    /// holds it, as a scheduler is; a scheduler's label never names a queue, nor the reverse.
    @Test func rawQueuesAreNamedByTheirVariables() {
        let source = """
            let storageQueue = DispatchQueue(label: "app.storage")
            enum Queues { static let network = Dispatch.DispatchQueue(label: "app.network", qos: .utility) }
            let uploads = SerialQueueScheduler(label: "app.uploads")
            final class Downloader { let queue = DispatchQueue(label: "app.download") }
            """
        let index = SchedulerDeclarations(files: [SourceFile(path: "S.swift", text: source)])
        func spelling(_ label: String, queue: Bool) -> String? {
            if case .found(let spelling, _) = index.lookup(label: label, queue: queue) { return spelling }
            return nil
        }
        #expect(spelling("app.storage", queue: true) == "storageQueue")
        #expect(spelling("app.network", queue: true) == "Queues.network")
        #expect(spelling("app.storage", queue: false) == nil)
        #expect(spelling("app.uploads", queue: true) == nil)
        #expect(spelling("app.uploads", queue: false) == "uploads")
        #expect(index.lookup(label: "app.download", queue: true) == .notFound("'queue' (S.swift:4) holds it, but as an instance property or a local, which the record's initializer cannot name; make it a global or a static member"))
        #expect(index.lookup(label: "app.none", queue: true) == .notFound(#"no 'let' or 'var' initialised with DispatchQueue(label: "app.none") in the sources"#))
    }

    @Test func replacedLinesDiffAsRemovedAndAddedInHunksThatMerge() {
        let lines = (1...20).map { "line \($0)" }
        let edits = [3, 6, 18].map { ApplyPlan.LineEdit(path: "F.swift", line: $0, old: "line \($0)", new: "new \($0)") }
        let edited = EditedSource(path: "F.swift", lines: lines, edits: edits)
        let diff = edited.unifiedDiff()
        let headers = diff.split(separator: "\n").filter { $0.hasPrefix("@@") }
        #expect(headers == ["@@ -1,9 +1,9 @@", "@@ -15,6 +15,6 @@"])
        #expect(diff.hasPrefix("--- a/F.swift\n+++ b/F.swift\n"))
        #expect(diff.contains("-line 6\n+new 6\n line 7\n"))
        #expect(edited.text.components(separatedBy: "\n").filter { $0.hasPrefix("new") } == ["new 3", "new 6", "new 18"])
    }

    /// A proposal written before the rename names each entry's conclusion `verdict`: `apply` reads it
    /// as the same proposal, every type with its conclusion, and plans the same edits.
    @Test func aProposalOfTheEarlierVersionIsReadByItsVerdictKey() throws {
        let (proposal, sources) = try Self.prepare()
        let current = try String(contentsOfFile: proposal, encoding: .utf8)
        let earlier = current.replacingOccurrences(of: #""conclusion""#, with: #""verdict""#)
        #expect(earlier != current)
        #expect(earlier.components(separatedBy: #""conclusion""#).count == 1)
        let earlierPath = try F.write(earlier, to: "earlier.json", in: sources.deletingLastPathComponent())
        let read = try Proposal.load(path: earlierPath)
        #expect(read.types.map(\.conclusion) == (try Proposal.load(path: proposal)).types.map(\.conclusion))
        #expect(Set(read.types.map(\.conclusion)) == Set(Proposal.Conclusion.allCases))
        let plan = { (path: String) in AuditCommand.main(arguments: ["apply", path, "--sources", sources.path]) }
        let fromEarlier = plan(earlierPath), fromCurrent = plan(proposal)
        #expect(fromEarlier.status == 0, "\(fromEarlier.standardError)")
        #expect(fromEarlier.standardOutput == fromCurrent.standardOutput.replacingOccurrences(of: proposal, with: earlierPath))
    }

    @Test func aProposalOfAnotherFormatOrVersionIsAnError() throws {
        let directory = try F.temporaryDirectory()
        let newer = try F.write(#"{"format": "schedulable-proposal", "version": 9}"#, to: "p.json", in: directory)
        let result = AuditCommand.main(arguments: ["apply", newer, "--sources", directory.path])
        #expect(result.status == AuditCommand.exitUsage)
        #expect(result.standardError == "error: '\(newer)' is schedulable-proposal version 9; this schedule-audit-tool reads up to version 2: update Schedulable\nRun 'schedule-audit-tool apply --help' for usage.\n")
        let observations = AuditCommand.main(arguments: ["apply", F.observation("owner"), "--sources", directory.path])
        #expect(observations.standardError.hasPrefix("error: '\(F.observation("owner"))' is not a schedulable-proposal file: found 'schedulable-observations'"))
    }
}
