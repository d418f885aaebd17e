/// One setting of ``ConfinementSystem`` read from the environment under its name, and under its former
/// `SCHEDULE_PROTECTION…` name for compatibility.
///
/// The new name is read first, then the old one. Reading an old name prints, once per process and
/// name, that it is deprecated (and, when both are set to different values, that the new one wins), so
/// a setting that still works is not left unnoticed. CI and the documentation set only the new names:
/// `.ci/check-quiet` fails a test run that prints the notice.
struct EnvironmentSetting: Sendable {
    /// The name read first: `SCHEDULABLE_CONFINEMENT…`.
    let name: String
    /// The former name: read after ``name``, and its value used only when ``name`` is not set.
    let deprecatedName: String

    /// The policy.
    static let policy = EnvironmentSetting(
        name: ConfinementSystem.environmentVariable, deprecatedName: "SCHEDULE_PROTECTION"
    )
    /// The JSON Lines sink.
    static let jsonLines = EnvironmentSetting(
        name: ConfinementSystem.jsonLinesEnvironmentVariable, deprecatedName: "SCHEDULE_PROTECTION_JSONL"
    )
    /// The stack depth.
    static let stackDepth = EnvironmentSetting(
        name: ConfinementSystem.stackDepthEnvironmentVariable, deprecatedName: "SCHEDULE_PROTECTION_STACK"
    )

    /// The old names whose notice was printed: once per process each.
    private static let noticed = LockedValue<Set<String>>([])

    /// The value and the name it was read under: the new name's if set, else the old name's (with the
    /// notice); `nil` when neither is set.
    func read() -> (value: String, name: String)? {
        let current = StandardError.environmentValue(name)
        guard let former = StandardError.environmentValue(deprecatedName) else {
            return current.map { ($0, name) }
        }
        var notice = "Schedulable: \(deprecatedName) is deprecated; use \(name)"
        if let current, current != former {
            notice += " (both are set and differ: \(name) wins, \(deprecatedName) is ignored)"
        }
        if Self.noticed.withLock({ $0.insert(deprecatedName).inserted }) {
            StandardError.write(notice + "\n")
        }
        return current.map { ($0, name) } ?? (former, deprecatedName)
    }
}
