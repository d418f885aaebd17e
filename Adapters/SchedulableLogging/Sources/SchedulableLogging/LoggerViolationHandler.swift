import Logging
import Schedulable

/// Sends every violation to a swift-log `Logger`, with each report field as metadata, so violations
/// reach whatever backend the application bootstrapped (a file, syslog, a log aggregator).
///
/// ```swift
/// ConfinementSystem.bootstrap(LoggerViolationHandler(logger: Logger(label: "com.app.confinement")))
/// ```
///
/// Levels: ``ConfinementViolation/Tier/note`` → `.notice`, the debug tier → `.warning`, the
/// precondition tier → `.critical` (the process stops after the handler). The message is the report's
/// first line; the metadata keys are the fields of the JSON Lines schema (`kind`, `tier`, `typeName`,
/// `member`, `expectedOwner`, `actualContext`, `path`, `line`, `ownerBoundAt`, `detail`, and — schema
/// version 2 — `accessSite` and `stack`, each frame a dictionary with `function` and, when known, `path`,
/// `line`, `fileID` and `image`; version 3 — `ownerActivity` and `intruder`, dictionaries with the
/// schema's keys, values as strings).
public struct LoggerViolationHandler: ConfinementViolationHandler {
    /// The logger that receives the violations.
    public let logger: Logger

    /// Creates a handler.
    ///
    /// - Parameter logger: The logger that receives the violations.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs `violation` at the level of its tier, with its fields as metadata.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ConfinementViolation) {
        let firstLine = violation.description.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        logger.log(level: Self.level(of: violation.tier), "\(firstLine)", metadata: Self.metadata(of: violation))
    }

    /// The swift-log level for a tier.
    ///
    /// - Parameter tier: The violation's tier.
    /// - Returns: `.notice`, `.warning` or `.critical`.
    public static func level(of tier: ConfinementViolation.Tier) -> Logger.Level {
        switch tier {
        case .note: return .notice
        case .assert: return .warning
        case .precondition: return .critical
        }
    }

    /// The report's fields as log metadata.
    ///
    /// - Parameter violation: The violation.
    /// - Returns: One entry per field that is present.
    public static func metadata(of violation: ConfinementViolation) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "kind": "\(violation.kind.rawValue)",
            "tier": "\(String(describing: violation.tier))",
            "member": "\(violation.member)",
            "expectedOwner": "\(violation.expectedOwner)",
            "actualContext": "\(violation.actualContext)",
        ]
        if let type = violation.objectType { metadata["typeName"] = "\(type)" }
        if let identity = violation.objectIdentity { metadata["objectIdentity"] = "\(identity)" }
        if let site = violation.callSite {
            metadata["path"] = "\(site.fileID)"
            metadata["line"] = "\(site.line)"
        }
        if let bound = violation.ownerBoundAt { metadata["ownerBoundAt"] = "\(bound)" }
        if let detail = violation.detail { metadata["detail"] = "\(detail)" }
        if let site = violation.accessSite { metadata["accessSite"] = frame(site) }
        let stack = violation.stack
        if !stack.isEmpty { metadata["stack"] = .array(stack.map(frame)) }
        if let owner = violation.ownerActivity { metadata["ownerActivity"] = ownerActivity(owner) }
        if let intruder = violation.intruder { metadata["intruder"] = self.intruder(intruder) }
        return metadata
    }

    /// What the owner was running, with the JSON Lines schema's keys.
    private static func ownerActivity(_ owner: ConfinementViolation.OwnerActivity) -> Logger.MetadataValue {
        var fields: Logger.Metadata = ["state": "\(owner.state.rawValue)"]
        if let at = owner.scheduledAt { fields["scheduledAt"] = "\(at)" }
        if let function = owner.function { fields["function"] = "\(function)" }
        if let running = owner.runningForNanoseconds { fields["runningForNanoseconds"] = "\(running)" }
        if let thread = owner.drainingThread { fields["drainingThread"] = "\(thread)" }
        return .dictionary(fields)
    }

    /// Who made the access, with the JSON Lines schema's keys.
    private static func intruder(_ intruder: ConfinementViolation.Intruder) -> Logger.MetadataValue {
        var fields: Logger.Metadata = ["inTask": "\(intruder.inTask)", "thread": "\(intruder.thread)"]
        if let context = intruder.context { fields["context"] = "\(context)" }
        if let at = intruder.scheduledAt { fields["scheduledAt"] = "\(at)" }
        if let function = intruder.function { fields["function"] = "\(function)" }
        if let name = intruder.taskName { fields["taskName"] = "\(name)" }
        if let name = intruder.threadName { fields["threadName"] = "\(name)" }
        if let qos = intruder.qos { fields["qos"] = "\(qos)" }
        return .dictionary(fields)
    }

    /// A stack frame as a metadata dictionary, with the JSON Lines schema's keys.
    private static func frame(_ frame: ConfinementViolation.StackFrame) -> Logger.MetadataValue {
        var fields: Logger.Metadata = ["function": "\(frame.function)"]
        if let path = frame.file { fields["path"] = "\(path)" }
        if let line = frame.line { fields["line"] = "\(line)" }
        if let fileID = frame.fileID { fields["fileID"] = "\(fileID)" }
        if let image = frame.image { fields["image"] = "\(image)" }
        return .dictionary(fields)
    }
}
