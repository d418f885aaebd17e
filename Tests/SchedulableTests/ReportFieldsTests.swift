import Foundation
import Schedulable
import Testing

/// The report's one schema: the text report and the JSON Lines line both render `fields`, so each
/// field is compared in both, and neither says anything the list does not (the swift-log adapter's
/// side of it is in its own package's tests, against the JSON Lines line).
@Suite("One list of report fields")
struct ReportFieldsTests {
    /// A violation with every field there is: both sides, an access site and stack, a history.
    private static func everyField() -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", objectIdentity: "0x1", member: "enqueue(_:)",
            expectedOwner: "queue \"com.app.uploads\"", actualContext: "main thread",
            ownerBoundAt: CodeLocation(fileID: "App/Upload.swift", line: 4),
            callSite: CodeLocation(fileID: "App/Upload.swift", line: 9), detail: "extra"
        )
        violation.ownerActivity = .init(
            state: .running, scheduledAt: CodeLocation(fileID: "App/Upload.swift", line: 88), function: "enqueue(_:)",
            runningForNanoseconds: 3_000_000
        )
        violation.intruder = .init(inTask: true, taskName: "Upload batch 3", thread: 4243, threadName: "worker", qos: "default")
        let site = ConfinementViolation.StackFrame(function: "touch(_:)", file: "/src/App/main.swift", line: 14, column: 5, module: "App")
        violation.accessSite = site
        violation.stack = [site, .init(function: "DispatchQueue.sync(execute:)", image: "libswiftDispatch.so")]
        var history = ConfinementViolation.History(createdAt: CodeLocation(fileID: "App/Upload.swift", line: 2), createdOn: "main thread")
        history.ownerChanges = [.init(kind: "handOff", newOwner: "queue \"q\"", at: CodeLocation(fileID: "App/Upload.swift", line: 3), context: "main thread")]
        history.ownerChangeCount = 1
        history.lastLegitimateAccess = .init(member: "enqueue(_:)", at: nil, context: "queue \"q\"")
        violation.history = history
        return violation
    }

    /// Whether `written`, as `JSONSerialization` read it, is `value`.
    private func same(_ written: Any, _ value: ConfinementViolation.FieldValue) -> Bool {
        switch value {
        case .string(let text): return written as? String == text
        case .integer(let number): return (written as? NSNumber)?.int64Value == number
        case .boolean(let flag): return written as? Bool == flag
        case .object(let fields):
            guard let object = written as? [String: Any], object.count == fields.count else { return false }
            return fields.allSatisfy { field in object[field.name].map { same($0, field.value) } ?? false }
        case .array(let values):
            guard let array = written as? [Any], array.count == values.count else { return false }
            return zip(array, values).allSatisfy(same)
        }
    }

    @Test func theJSONLineIsTheFieldsBetweenItsEnvelopeAndItsMessage() throws {
        let violation = Self.everyField()
        let fields = violation.fields
        let line = violation.jsonLine(level: .warn)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(["schema", "version", "level", "message"] + fields.map(\.name)))
        #expect(fields.count == Set(fields.map(\.name)).count, "a name is one field")
        for field in fields {
            let written = try #require(object[field.name], "\(field.name)")
            #expect(same(written, field.value), "\(field.name): \(written) is not \(field.value)")
        }
        #expect(object["message"] as? String == violation.description)
        // Every field the fixture set is there: a new stored property must reach the list.
        #expect(fields.map(\.name) == [
            "kind", "tier", "typeName", "objectIdentity", "member", "qualifiedMember", "expectedOwner", "actualContext",
            "ownerActivity", "intruder", "accessSite", "ownerBoundAt", "callSite", "detail", "history", "stack",
        ])
    }

    @Test func theTextReportIsItsHeadlineThenEachFieldsLinesInOrder() {
        let violation = Self.everyField()
        let lines = violation.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Schedulable: UploadQueue.enqueue(_:) used outside its owner")
        #expect(Array(lines.dropFirst()) == violation.fields.flatMap(\.textLines))
        // Each value the text shows is the one the JSON writes.
        #expect(lines.contains("  call site:       App/Upload.swift:9"))
        #expect(lines.contains("  access site:     App/main.swift:14 in touch(_:)"))
        #expect(lines.contains("  object:          UploadQueue (0x1)"))
    }

    @Test func everyCodeLocationHasOneShape() throws {
        let violation = Self.everyField()
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(violation.jsonLine().utf8)) as? [String: Any]
        )
        func location(_ value: Any?) -> [String: Any]? { value as? [String: Any] }
        let history = try #require(location(object["history"]))
        let changes = try #require(history["ownerChanges"] as? [[String: Any]])
        let sites: [(String, [String: Any]?)] = [
            ("callSite", location(object["callSite"])),
            ("ownerBoundAt", location(object["ownerBoundAt"])),
            ("ownerActivity.scheduledAt", location(location(object["ownerActivity"])?["scheduledAt"])),
            ("history.createdAt", location(history["createdAt"])),
            ("history.ownerChanges[0].at", location(changes.first?["at"])),
            ("accessSite.location", location(location(object["accessSite"])?["location"])),
        ]
        for (name, site) in sites {
            let site = try #require(site, "\(name) is a location")
            #expect(site["fileID"] is String && site["line"] is Int, "\(name): \(site)")
            #expect(Set(site.keys).isSubset(of: ["fileID", "line", "column", "path"]), "\(name): \(site.keys)")
        }
        let frame = try #require(location(location(object["accessSite"])?["location"]))
        #expect(frame["fileID"] as? String == "App/main.swift" && frame["path"] as? String == "/src/App/main.swift")
        #expect(frame["column"] as? Int == 5)
    }
}
