import Foundation
import Testing
@testable import ScheduleAuditCore

/// Where every instance moves A → B without a `handOff(to:)` and the run recorded one `letGo` line for
/// all of them, `propose` carries that line and `apply` inserts `<receiver>.handOff(to: <B>)` after
/// its statement; anywhere else it says why and edits nothing for it.
@Suite("propose and apply: the hand-off placed where the run let go")
struct HandOffInsertionTests {
    static let queues = """
        import Dispatch

        let networkQueue = DispatchQueue(label: "feed.network")
        let storageQueue = DispatchQueue(label: "feed.storage")
        """
    static let article = """
        import Schedulable

        final class Article: ConfinedObject {
            let confinement = Confinement.observed()
            @Confined var words = 0
            func parse() { words = 1 }
            func markStored() { words += 0 }
        }
        """
    static let fetcher = """
        final class Fetcher {
            func fetch(_ titles: [String]) -> [Article] {
                titles.map { title in
                    let article = Article()
                    article.parse()
                    return article
                }
            }

            func refetch(_ list: [Article]) {
                list[0].parse()
            }
        }
        """

    /// An observation file of `Article`: each instance parsed on `feed.network`, then stored on
    /// `feed.storage`, whose step carries `letGo` (line, function), or none when `nil`.
    static func observation(_ letGos: [(line: Int, function: String)?]) -> String {
        let instances = letGos.enumerated().map { serial, letGo in
            let site = #"{"file": "App/Fetcher.swift", "line": 5, "function": "closure #1 in Fetcher.fetch(_:)"}"#
            let left = letGo.map { #", "letGo": {"file": "App/Fetcher.swift", "line": \#($0.line), "function": "\#($0.function)"}"# } ?? ""
            return #"""
                {"serial": \#(serial + 1), "stepsDropped": 0, "steps": [
                  {"context": 1, "member": "parse()", "site": \#(site)},
                  {"context": 2, "member": "markStored()", "site": {"file": "App/Store.swift", "line": 3, "function": "Store.add(_:)"}\#(left)}]}
                """#
        }
        return """
            {"format": "schedulable-observations", "version": 1, "resolution": "innermost-serial",
             "limits": {"instancesPerType": 64, "stepsPerInstance": 8, "contextsPerMember": 16},
             "contexts": [{"id": 1, "kind": "queue", "label": "feed.network"}, {"id": 2, "kind": "queue", "label": "feed.storage"}],
             "types": [{"type": "Article", "module": "App", "record": {"kind": "observed", "createdAt": {"file": "App/Article.swift", "line": 4}},
                        "members": [], "instanceSteps": [\(instances.joined(separator: ", "))]}]}
            """
    }

    /// Proposes from `observation` over a fresh copy of the sources, then applies (`--apply` when `write`).
    static func run(_ observation: String, write: Bool) throws -> (sources: TemporarySources, proposal: Proposal, propose: String, apply: String) {
        let sources = try TemporarySources([
            "Sources/App/Queues.swift": queues, "Sources/App/Article.swift": article, "Sources/App/Fetcher.swift": fetcher,
            "obs/run.json": observation,
        ])
        let path = sources.path("proposal.json")
        let proposed = AuditCommand.main(arguments: ["propose", sources.path("obs"), "--output", path])
        #expect(proposed.status == 0, "\(proposed.standardError)")
        let applied = AuditCommand.main(arguments: ["apply", path, "--sources", sources.path("Sources")] + (write ? ["--apply"] : []))
        #expect(applied.status == 0, "\(applied.standardError)")
        return (sources, try Proposal.load(path: path), proposed.standardOutput, applied.standardOutput)
    }

    static let fetchLine = (line: 5, function: "closure #1 in Fetcher.fetch(_:)")

    @Test func oneLetGoLineForEveryInstanceIsWhereApplyInsertsTheHandOff() throws {
        let dry = try Self.run(Self.observation([Self.fetchLine, Self.fetchLine, Self.fetchLine]), write: false)
        let handOff = try #require(dry.proposal.types.first?.handOffs.first)
        #expect(handOff.letGo == Observation.Site(file: "App/Fetcher.swift", line: 5, function: "closure #1 in Fetcher.fetch(_:)"))
        #expect(handOff.unplaced == nil)
        #expect(dry.propose.contains("    every instance leaves queue 'feed.network' after App/Fetcher.swift:5 closure #1 in Fetcher.fetch(_:): 'apply' inserts the handOff(to:) after that line\n"))
        let fetcher = dry.sources.path("Sources/App/Fetcher.swift")
        #expect(dry.apply.contains("\(fetcher):5:13: note: every instance of 'App.Article' leaves queue 'feed.network' for queue 'feed.storage' after this line: fix-it: insert 'article.handOff(to: storageQueue)' after line 5 ('article' is declared as 'Article' on line 4)\n"))
        #expect(dry.apply.contains("""
                         let article = Article()
                         article.parse()
            +            article.handOff(to: storageQueue)
                         return article

            """))
        #expect(try dry.sources.read("Sources/App/Fetcher.swift") == Self.fetcher)

        let applied = try Self.run(Self.observation([Self.fetchLine, Self.fetchLine]), write: true)
        #expect(applied.apply.hasSuffix("schedule-audit apply: 2 edits in 2 files written\n"))
        #expect(try applied.sources.read("Sources/App/Fetcher.swift") == Self.fetcher.replacingOccurrences(
            of: "            article.parse()\n", with: "            article.parse()\n            article.handOff(to: storageQueue)\n"))
        #expect(try applied.sources.read("Sources/App/Article.swift").contains("    let confinement = Confinement.transferable(owner: networkQueue)\n"))
    }

    @Test func instancesThatLetGoAtDifferentLinesAreRefusedAndTheFileIsUntouched() throws {
        let other = (line: 11, function: "Fetcher.refetch(_:)")
        let run = try Self.run(Self.observation([Self.fetchLine, other, Self.fetchLine]), write: true)
        let handOff = try #require(run.proposal.types.first?.handOffs.first)
        #expect(handOff.letGo == nil)
        let reason = "the instances left at 2 different lines (App/Fetcher.swift:5, App/Fetcher.swift:11): no one place for it"
        #expect(handOff.unplaced == reason)
        #expect(run.propose.contains("    the handOff(to:) to queue 'feed.storage' cannot be placed: \(reason)\n"))
        #expect(run.apply.contains("App/Store.swift:3:1: note: the handOff(to:) of 'App.Article' cannot be placed: \(reason)"))
        #expect(run.apply.hasSuffix("schedule-audit apply: 1 edit in 1 file written\n"))
        #expect(try run.sources.read("Sources/App/Fetcher.swift") == Self.fetcher)
        // Some instances with a letGo and some without: said, not placed.
        let partial = try Self.run(Self.observation([Self.fetchLine, nil]), write: false)
        #expect(partial.proposal.types.first?.handOffs.first?.unplaced == "1 of 2 instance moves have no recorded 'letGo': where those left is unknown")
        #expect(!partial.apply.contains("+++ \(partial.sources.path("Sources/App/Fetcher.swift"))"))
    }

    @Test func aReceiverThatIsNoPlainVariableIsRefusedWithTheLineNamed() throws {
        let run = try Self.run(Self.observation([(11, "Fetcher.refetch(_:)")]), write: true)
        let fetcher = run.sources.path("Sources/App/Fetcher.swift")
        #expect(run.apply.contains("\(fetcher):11:1: warning: every instance of 'App.Article' leaves queue 'feed.network' for queue 'feed.storage' after this line, but the hand-off cannot be inserted after 'list[0].parse()': line 11: it is not a call or member access on a plain variable (its receiver is an expression, 'self', implicit or a type); write '<object>.handOff(to: storageQueue)' by hand, no edit\n"))
        #expect(try run.sources.read("Sources/App/Fetcher.swift") == Self.fetcher)
        // The record still becomes transferable: only the insertion is refused.
        #expect(try run.sources.read("Sources/App/Article.swift").contains("Confinement.transferable(owner: networkQueue)"))
    }

    @Test func aRunWithoutLetGoProposesAndAppliesAsBefore() throws {
        let run = try Self.run(Self.observation([nil, nil]), write: true)
        let handOff = try #require(run.proposal.types.first?.handOffs.first)
        #expect(handOff.letGo == nil)
        #expect(handOff.unplaced == "the run did not record where any of the 2 instances left (no 'letGo': a runtime before it)")
        #expect(run.proposal.types.first?.evidence == [
            "2 instances created on queue 'feed.network' and handed forward, never back: Confinement.transferable(owner:)",
            "queue 'feed.network' → queue 'feed.storage' at App/Store.swift:3 Store.add(_:)",
        ])
        #expect(!run.apply.contains("cannot be placed") && !run.apply.contains("fix-it: insert"))
        #expect(run.apply.contains("App/Store.swift:3:1: note: hand 'App.Article' from queue 'feed.network' to queue 'feed.storage' before this first use there: <object>.handOff(to: storageQueue)"))
        #expect(run.apply.hasSuffix("schedule-audit apply: 1 edit in 1 file written\n"))
        #expect(try run.sources.read("Sources/App/Fetcher.swift") == Self.fetcher)
        // The proposal of a file without `letGo` has no `letGo` key.
        #expect(!(try run.sources.read("proposal.json")).contains("\"letGo\""))
    }

    /// What the scan accepts: the statement's last line, the variable, and where it found its type.
    @Test(arguments: [
        ("func f() {\n    run(then: {\n        a.parse()\n        a.words = 1\n    })\n}", 2, "closure #1 in f()", 2, 8,
         "the scan found no declaration of 'a' with a type"),
        ("func f() {\n    if list.contains(where: { $0 }) {\n        let a: App.Article = make()\n        try a.update(\n            1)\n        g()\n    }\n}", 3, "f()", 4, 8,
         "'a' is declared as 'Article' on line 3"),
        ("init(a: Article) {\n    let n = a.count()\n    use(n)\n}", 1, "Article.init(a:)", 1, 4, "'a' is declared as 'Article' on line 1"),
        ("func f() {\n    _ = a.parse()\n    g()\n}", 1, "f()", 1, 4, "the scan found no declaration of 'a' with a type"),
    ] as [(String, Int, String, Int, Int, String)])
    func theScanPlacesAfterAStatementOnAPlainVariable(source: String, line: Int, function: String, endLine: Int, column: Int, noted: String) {
        let placement = SourceFile(path: "A.swift", text: source).handOffPlacement(line: line, typeName: "Article", function: function)
        #expect(placement == .after(endLine: endLine, receiver: "a", column: column, typeNoted: noted))
    }

    /// The scan's refusals, each with its reason; and what it accepts.
    @Test(arguments: [
        ("func f(a: Article) {\n    a.parse()\n    a.words = 2\n}", 1, "Article.f(a:)", nil),
        ("func f() {\n    return a.parse()\n}", 1, "f()", "line 2: it is a 'return': nothing after it runs"),
        ("func f() {\n    self.article.parse()\n}", 1, "f()", "line 2: it is not a call or member access on a plain variable (its receiver is an expression, 'self', implicit or a type)"),
        ("func f() {\n    a.parse().words\n}", 1, "f()", "line 2: the statement goes on after 'a.parse' ('.'): the scan cannot tell which object it leaves"),
        ("func f() {\n    a.run { }\n}", 1, "f()", "line 2: its call has a trailing closure, which may run after the statement"),
        ("func f() {\n    q.sync {\n        a.parse() }\n}", 2, "closure #1 in f()", "the block closes on line 3 right after the statement: there is no line to put the hand-off on"),
        ("func f() {\n    a.parse(); b.parse()\n}", 1, "f()", "another statement follows it on line 2"),
        ("func f() {\n    q.async {\n        a.parse()\n    }\n}", 2, "f()", "line 3 is 1 closure deep in its function, but the run used the object there in 'f()': not the code that ran there"),
        ("func f() {\n    q.async {\n        a.parse()\n    }\n}", 2, nil, "line 3 is inside a closure, and the run did not name the function that used the object there"),
        ("func f() {\n    let x = g(\n        a.parse())\n}", 2, "f()", "line 3 is inside the '(' opened on line 2: it continues an expression"),
        ("func f(a: Fetcher) {\n    a.parse()\n}", 1, "f(a:)", "line 2: 'a' is declared as 'Fetcher' on line 1, not as 'Article'"),
        ("func g() {\n    a.parse()\n}", 1, "Fetcher.f()", "line 2 is in 'g', but the run used the object there in 'Fetcher.f()' (the sources changed since the run?)"),
    ] as [(String, Int, String?, String?)])
    func theScanPlacesOnlyWhatItCanBeSureOf(source: String, line: Int, function: String?, refusal: String?) {
        let placement = SourceFile(path: "A.swift", text: source).handOffPlacement(line: line, typeName: "App.Article", function: function)
        if let refusal {
            #expect(placement == .refused(refusal))
        } else {
            #expect(placement == .after(endLine: 1, receiver: "a", column: 4, typeNoted: "'a' is declared as 'Article' on line 1"))
        }
    }
}
