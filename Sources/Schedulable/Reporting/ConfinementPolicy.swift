/// Which ``ConfinementLevel`` applies to which violation: a process default, and overrides per type and
/// per member — so a codebase can make the checks strict one type at a time.
///
/// ```swift
/// ConfinementSystem.bootstrap(policy: ConfinementPolicy(default: .warnOnce, overrides: [
///     "UploadQueue": .trap,                  // a type
///     "UploadQueue.debugDump()": .off,       // one member of it
/// ]))
/// ```
///
/// The same policy in the `SCHEDULABLE_CONFINEMENT` environment variable:
/// `warn-once,UploadQueue=trap,UploadQueue.debugDump()=off` (see ``init(parsing:fallback:)``).
public struct ConfinementPolicy: Sendable, Equatable, CustomStringConvertible {
    /// The level of every violation no override names.
    public var defaultLevel: ConfinementLevel

    /// Levels by type name (`UploadQueue`) or by member (`UploadQueue.enqueue(_:)`, as reports spell
    /// ``ConfinementViolation/qualifiedMember``). A member's entry wins over its type's.
    public var overrides: [String: ConfinementLevel]

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - defaultLevel: The level of every violation no override names.
    ///   - overrides: Levels by type name or by `Type.member`.
    public init(default defaultLevel: ConfinementLevel, overrides: [String: ConfinementLevel] = [:]) {
        self.defaultLevel = defaultLevel
        self.overrides = overrides
    }

    /// Parses the compact syntax of the `SCHEDULABLE_CONFINEMENT` environment variable.
    ///
    /// Entries are separated by commas; white space around them is ignored. An entry without `=` is the
    /// default level (at most one); `Name=level` sets the level of a type (`UploadQueue=trap`) or of a
    /// member (`UploadQueue.enqueue(_:)=off`). Levels: `off`, `observe`, `warn-once`, `warn`, `fail-test`, `trap`.
    /// Without a default entry the default is `fallback`.
    ///
    /// - Parameters:
    ///   - text: The policy, e.g. `warn,UploadQueue=trap`.
    ///   - fallback: The default level when `text` names none.
    /// - Throws: ``ParseError`` naming every entry that is malformed or names an unknown level.
    public init(parsing text: String, fallback: ConfinementLevel = .trap) throws(ParseError) {
        var policy = ConfinementPolicy(default: fallback)
        var problems: [String] = []
        var defaultEntry: String?
        for rawEntry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = rawEntry.trimmingWhitespace
            if entry.isEmpty {
                problems.append("an empty entry (two commas in a row, or a comma at an end)")
                continue
            }
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let levelText = (parts.count == 2 ? parts[1] : parts[0]).trimmingWhitespace
            guard let level = ConfinementLevel(rawValue: levelText.lowercased()) else {
                problems.append("\"\(entry)\": unknown level \"\(levelText)\"")
                continue
            }
            guard parts.count == 2 else {
                if let defaultEntry {
                    problems.append("\"\(entry)\": a second default level (the first is \"\(defaultEntry)\")")
                } else {
                    defaultEntry = entry
                    policy.defaultLevel = level
                }
                continue
            }
            let name = parts[0].trimmingWhitespace
            if name.isEmpty {
                problems.append("\"\(entry)\": no type or member before \"=\"")
            } else if let earlier = policy.overrides[name], earlier != level {
                problems.append("\"\(entry)\": \(name) already has the level \(earlier.rawValue)")
            } else {
                policy.overrides[name] = level
            }
        }
        if !problems.isEmpty {
            throw ParseError(text: text, problems: problems, validPart: policy)
        }
        self = policy
    }

    /// The level for `violation`: its member's override, else its type's, else the default.
    ///
    /// - Parameter violation: The violation.
    /// - Returns: The level that applies.
    public func level(for violation: ConfinementViolation) -> ConfinementLevel {
        if let level = overrides[violation.qualifiedMember] { return level }
        if let type = violation.objectType, let level = overrides[type] { return level }
        return defaultLevel
    }

    /// The policy in the environment variable's syntax, overrides sorted by name.
    public var description: String {
        ([defaultLevel.rawValue] + overrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" })
            .joined(separator: ",")
    }
}

extension ConfinementPolicy {
    /// A policy text that could not be parsed (what ``init(parsing:fallback:)`` throws): every problem,
    /// and what the valid entries alone would give.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text that was parsed.
        public let text: String
        /// One sentence per malformed entry.
        public let problems: [String]
        /// The policy the valid entries give, so that a caller can apply them and lose nothing else.
        public let validPart: ConfinementPolicy

        /// What is wrong and how to write it.
        public var description: String {
            "the confinement policy \"\(text)\" has \(problems.count == 1 ? "a problem" : "\(problems.count) problems"): "
                + problems.joined(separator: "; ")
                + ". Write entries as level or Name=level, separated by commas; levels: "
                + ConfinementLevel.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
