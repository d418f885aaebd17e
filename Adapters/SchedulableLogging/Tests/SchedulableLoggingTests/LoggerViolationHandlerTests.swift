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

/// Sends each violation to the adapter and to a JSON Lines file, and keeps it.
private final class BothSinks: ConfinementViolationHandler, @unchecked Sendable {
    // @unchecked: `violations` is only touched under `lock`.
    let adapter: LoggerViolationHandler
    let file: BuiltInViolationHandler
    private let lock = NSLock()
    private var violations: [ConfinementViolation] = []

    init(adapter: LoggerViolationHandler, path: String) {
        self.adapter = adapter
        self.file = .jsonLines(path: path)
    }

    func handle(_ violation: ConfinementViolation) {
        lock.withLock { violations.append(violation) }
        adapter.handle(violation)
        file.handle(violation)
    }

    var recorded: [ConfinementViolation] { lock.withLock { violations } }
}

@Suite("swift-log adapter")
struct LoggerViolationHandlerTests {
    /// Whether `metadata` is what the JSON Lines line wrote: text as text, numbers and flags as their
    /// text, objects and arrays alike.
    private func same(_ metadata: Logger.MetadataValue, _ json: Any) -> Bool {
        switch metadata {
        case .string(let text):
            if let string = json as? String { return string == text }
            if let number = json as? NSNumber { return text == "\(number)" || text == (number.boolValue ? "true" : "false") }
            return false
        case .stringConvertible(let value): return "\(value)" == "\(json)"
        case .dictionary(let fields):
            guard let object = json as? [String: Any], object.count == fields.count else { return false }
            return fields.allSatisfy { key, value in object[key].map { same(value, $0) } ?? false }
        case .array(let values):
            guard let array = json as? [Any], array.count == values.count else { return false }
            return zip(values, array).allSatisfy(same)
        }
    }

    @Test func theMetadataIsTheJSONLinesFieldsOneByOne() throws {
        let path = NSTemporaryDirectory() + "schedulable-adapter-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = RecordingLogHandler()
        let sinks = BothSinks(adapter: LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder }), path: path)
        let owner = ThreadScheduler(label: "test.adapter.fields.owner")
        defer { owner.shutdown() }
        let box = withConfinementViolationHandler(sinks) { SchedulableObject([Int](), on: owner) }
        SerialQueueScheduler(label: "test.adapter.fields.other").sync { box.assertIsolated() }
        guard ConfinementSystem.debugChecksCompiledIn else { return #expect(recorder.recorded.isEmpty) }
        let violation = try #require(sinks.recorded.first)
        let metadata = try #require(recorder.recorded.first?.metadata)
        let line = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        // The metadata is the report's fields: every one of them, and only them.
        #expect(Set(metadata.keys) == Set(violation.fields.map(\.name)))
        #expect(Set(object.keys).subtracting(["schema", "version", "level", "message"]) == Set(metadata.keys))
        for (key, value) in metadata {
            let written = try #require(object[key], "\(key)")
            #expect(same(value, written), "\(key): \(value) is not \(written)")
        }
        // A real violation of this shape has both sides, an access site and a stack.
        for key in ["ownerActivity", "intruder", "accessSite", "stack", "callSite"] { #expect(metadata[key] != nil, "\(key)") }
    }

    @Test func theLevelIsTheTiers() throws {
        let recorder = RecordingLogHandler()
        let handler = LoggerViolationHandler(logger: Logger(label: "test") { _ in recorder })
        let owner = SerialQueueScheduler(label: "test.adapter.level.owner")
        let box = withConfinementViolationHandler(handler) { SchedulableObject([Int](), on: owner) }
        SerialQueueScheduler(label: "test.adapter.level.other").sync { box.assertIsolated() }
        #expect(LoggerViolationHandler.level(of: .precondition) == .critical)
        #expect(LoggerViolationHandler.level(of: .note) == .notice)
        guard ConfinementSystem.debugChecksCompiledIn else { return #expect(recorder.recorded.isEmpty) }
        let entry = try #require(recorder.recorded.first)
        #expect(entry.level == .warning)
        #expect(entry.message == "Schedulable: SchedulableObject<Array<Int>>.assertIsolated() used outside its owner")
        #expect(entry.metadata["expectedOwner"] == "queue \"test.adapter.level.owner\"")
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
        guard case .dictionary(let location) = try #require(site["location"]) else {
            Issue.record("accessSite has no location")
            return
        }
        #expect(location["fileID"] == "SchedulableLoggingTests/LoggerViolationHandlerTests.swift")
        #expect(location["line"] == "\(line)")
        #expect(site["function"]?.description.contains("aRealViolationsAccessSiteIsTheLineThatMadeIt()") == true)
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
        #expect(intruder["scheduledAt"] == .dictionary([
            "fileID": "SchedulableLoggingTests/LoggerViolationHandlerTests.swift", "line": "\(line)",
        ]))
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
