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
/// first line; the metadata is the report's ``ConfinementViolation/fields``, the same list the text
/// report and the JSON Lines line render, under the JSON Lines schema's keys (`kind`, `tier`, `member`,
/// `callSite`, `accessSite`, `stack`, …): objects as dictionaries, arrays as arrays, every other value as
/// its text. A field the library adds reaches the metadata with no change here.
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

    /// The report's fields as log metadata: ``ConfinementViolation/fields``, the list the text report and
    /// the JSON Lines line render too, each under its JSON Lines key.
    ///
    /// - Parameter violation: The violation.
    /// - Returns: One entry per field that is present.
    public static func metadata(of violation: ConfinementViolation) -> Logger.Metadata {
        metadata(of: violation.fields)
    }

    /// A field's value as metadata: text as it is, numbers and flags as their text, objects as
    /// dictionaries and arrays as arrays.
    private static func value(_ value: ConfinementViolation.FieldValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let number): return .string(String(number))
        case .boolean(let flag): return .string(flag ? "true" : "false")
        case .object(let fields): return .dictionary(metadata(of: fields))
        case .array(let values): return .array(values.map(self.value))
        }
    }

    private static func metadata(of fields: [ConfinementViolation.Field]) -> Logger.Metadata {
        Dictionary(fields.map { ($0.name, value($0.value)) }, uniquingKeysWith: { _, last in last })
    }
}
