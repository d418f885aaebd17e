/// One setting of ``ConfinementSystem`` read from the environment under its name.
///
/// Its former `SCHEDULE_PROTECTION…` name (before 0.2) is no longer read; when it is set, the first read
/// says so on standard error, once per process and name, so that a setting that stopped working is not
/// left unnoticed. CI and the documentation set only the current names: `.ci/check-quiet` fails a test
/// run that prints the notice.
struct EnvironmentSetting: Sendable {
    /// The name read: `SCHEDULABLE_CONFINEMENT…`.
    let name: String
    /// The name before 0.2: never applied, only noticed.
    let formerName: String

    /// The policy.
    static let policy = EnvironmentSetting(name: ConfinementSystem.environmentVariable, formerName: "SCHEDULE_PROTECTION")
    /// The JSON Lines sink.
    static let jsonLines = EnvironmentSetting(
        name: ConfinementSystem.jsonLinesEnvironmentVariable, formerName: "SCHEDULE_PROTECTION_JSONL"
    )
    /// The stack depth.
    static let stackDepth = EnvironmentSetting(
        name: ConfinementSystem.stackDepthEnvironmentVariable, formerName: "SCHEDULE_PROTECTION_STACK"
    )

    /// The former names whose notice was printed: once per process each.
    private static let noticed = LockedValue<Set<String>>([])

    /// The value and the name it was read under; `nil` when the name is not set.
    func read() -> (value: String, name: String)? {
        if StandardError.environmentValue(formerName) != nil,
           Self.noticed.withLock({ $0.insert(formerName).inserted }) {
            StandardError.write("Schedulable: \(formerName) is no longer read (renamed in 0.2); set \(name)\n")
        }
        return StandardError.environmentValue(name).map { ($0, name) }
    }
}
