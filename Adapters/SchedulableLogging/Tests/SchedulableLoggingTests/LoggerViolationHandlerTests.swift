import Logging
import Schedulable
import SchedulableLogging
import Foundation
import Testing

/// A log handler that keeps what it receives.
private final class RecordingLogHandler: LogHandler, @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`; the swift-log protocol needs mutable
    // `metadata` and `logLevel` properties, which are set before the logger is shared.
    struct Entry {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { entries.append(Entry(level: event.level, message: event.message.description, metadata: event.metadata ?? [:])) }
    }

    var recorded: [Entry] { lock.withLock { entries } }
}

@Suite("swift-log adapter")
struct LoggerViolationHandlerTests {
    private func violation(tier: ConfinementViolation.Tier) -> ConfinementViolation {
        ConfinementViolation(
            kind: .wrongContext, tier: tier, objectType: "UploadQueue", objectIdentity: "0x1", member: "enqueue(_:)",
            expectedOwner: "queue \"com.app.uploads\"", actualContext: "main thread",
            ownerBoundAt: CodeLocation(fileID: "App/Upload.swift", line: 4),
            callSite: CodeLocation(fileID: "App/Upload.swift", line: 9), detail: "extra"
        )
    }

    @Test func everyFieldBecomesMetadataAtTheTiersLevel() {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        handler.handle(violation(tier: .assert))
        handler.handle(violation(tier: .note))
        let entries = recorder.recorded
        #expect(entries.map(\.level) == [.warning, .notice])
        #expect(entries[0].message == "Schedulable: UploadQueue.enqueue(_:) used outside its owner")
        #expect(entries[0].metadata == [
            "kind": "wrongContext", "tier": "assert", "typeName": "UploadQueue", "objectIdentity": "0x1",
            "member": "enqueue(_:)", "expectedOwner": "queue \"com.app.uploads\"", "actualContext": "main thread",
            "path": "App/Upload.swift", "line": "9", "ownerBoundAt": "App/Upload.swift:4", "detail": "extra",
        ])
        #expect(LoggerViolationHandler.level(of: .precondition) == .critical)
    }

    @Test func theAccessSiteAndStackAreMetadataWithTheSchemasKeys() {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        var violation = violation(tier: .assert)
        let site = ConfinementViolation.StackFrame(function: "touch(_:)", file: "/src/App/main.swift", line: 14, module: "App")
        violation.accessSite = site
        violation.stack = [site, ConfinementViolation.StackFrame(function: "DispatchQueue.sync(execute:)", image: "libswiftDispatch.so")]
        handler.handle(violation)
        let metadata = recorder.recorded[0].metadata
        let siteMetadata: Logger.MetadataValue = .dictionary(
            ["function": "touch(_:)", "path": "/src/App/main.swift", "line": "14", "fileID": "App/main.swift"]
        )
        #expect(metadata["accessSite"] == siteMetadata)
        #expect(metadata["stack"] == .array([
            siteMetadata, .dictionary(["function": "DispatchQueue.sync(execute:)", "image": "libswiftDispatch.so"]),
        ]))
    }

    @Test func aRealViolationsAccessSiteIsTheLineThatMadeIt() throws {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        let owner = SerialQueueScheduler(label: "test.adapter.site.owner")
        let box = withConfinementViolationHandler(handler) { SchedulableObject([Int](), on: owner) }
        let line = #line + 1
        SerialQueueScheduler(label: "test.adapter.site.other").sync { box.assertIsolated() }
        guard ConfinementSystem.debugChecksCompiledIn else { return #expect(recorder.recorded.isEmpty) }
        guard case .dictionary(let site) = try #require(recorder.recorded.first?.metadata["accessSite"]) else {
            Issue.record("accessSite is not a dictionary")
            return
        }
        #expect(site["fileID"] == "SchedulableLoggingTests/LoggerViolationHandlerTests.swift")
        #expect(site["line"] == "\(line)")
        #expect(site["function"]?.description.contains("aRealViolationsAccessSiteIsTheLineThatMadeIt()") == true)
    }

    @Test func bothSidesAreMetadataWithTheSchemasKeys() {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        var violation = violation(tier: .assert)
        violation.ownerActivity = ConfinementViolation.OwnerActivity(
            state: .running, scheduledAt: CodeLocation(fileID: "App/Upload.swift", line: 88), function: "enqueue(_:)",
            runningForNanoseconds: 3_000_000
        )
        violation.intruder = ConfinementViolation.Intruder(
            inTask: true, taskName: "Upload batch 3", thread: 4243, threadName: "com.apple.root.default-qos", qos: "default"
        )
        handler.handle(violation)
        let metadata = recorder.recorded[0].metadata
        #expect(metadata["ownerActivity"] == .dictionary([
            "state": "running", "scheduledAt": "App/Upload.swift:88", "function": "enqueue(_:)",
            "runningForNanoseconds": "3000000",
        ]))
        #expect(metadata["intruder"] == .dictionary([
            "inTask": "true", "taskName": "Upload batch 3", "thread": "4243",
            "threadName": "com.apple.root.default-qos", "qos": "default",
        ]))
    }

    @Test func aRealViolationsIntruderIsTheSyncCallThatMadeIt() throws {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        let owner = ThreadScheduler(label: "test.adapter.sides.owner")
        defer { owner.shutdown() }
        let box = withConfinementViolationHandler(handler) { SchedulableObject([Int](), on: owner) }
        let line = #line + 1
        SerialQueueScheduler(label: "test.adapter.sides.other").sync { box.assertIsolated() }
        guard ConfinementSystem.debugChecksCompiledIn else { return #expect(recorder.recorded.isEmpty) }
        let metadata = try #require(recorder.recorded.first?.metadata)
        #expect(metadata["ownerActivity"] == .dictionary(["state": "idle"]))
        guard case .dictionary(let intruder) = try #require(metadata["intruder"]) else {
            Issue.record("intruder is not a dictionary")
            return
        }
        #expect(intruder["context"] == "queue \"test.adapter.sides.other\"")
        #expect(intruder["scheduledAt"] == "SchedulableLoggingTests/LoggerViolationHandlerTests.swift:\(line)")
        #expect(intruder["function"] == "aRealViolationsIntruderIsTheSyncCallThatMadeIt()")
    }

    @Test func aScopedAdapterReceivesTheViolationsOfObjectsMadeInItsScope() {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        let owner = SerialQueueScheduler(label: "test.adapter.owner")
        let other = SerialQueueScheduler(label: "test.adapter.other")
        let box = withConfinementViolationHandler(handler) { SchedulableObject([Int](), on: owner) }
        for _ in 0..<100 {
            other.sync { box.assertIsolated() }
        }
        #expect(recorder.recorded.count == (ConfinementSystem.debugChecksCompiledIn ? 100 : 0))
        #expect(recorder.recorded.allSatisfy { $0.metadata["expectedOwner"] == "queue \"test.adapter.owner\"" })
    }
}
