import Schedulable

/// The Swift Testing test cases running now inside ``ConfinementCheckedTrait``'s scope, for an issue
/// of the run to name (``RunLevelTestHandler``, a late violation's issue).
///
/// Why only those: Swift Testing has no API that lists the tests running, and a GCD worker carries
/// none of their task-locals. A test case with the trait enters and leaves its scope, so its start and
/// end are known exactly; a test case without it is seen only when it makes a protected object or a
/// hand-off, and its end never, so naming it would name tests that may have ended long ago.
enum RunningTestScopes {
    private static let running = LockedValue<(next: Int, names: [Int: String])>((0, [:]))

    /// Runs `body` as the test case `name` (`test uploads() at App/UploadTests.swift:12`), listed
    /// while it runs.
    static func running<R>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        let token = running.withLock { running in
            defer { running.next += 1 }
            running.names[running.next] = name
            return running.next
        }
        defer { _ = running.withLock { $0.names.removeValue(forKey: token) } }
        return try await body()
    }

    /// The names of the test cases running now, in the order they started; each name once (a
    /// parameterized test's cases share it).
    static var names: [String] {
        var seen = Set<String>()
        return running.withLock { $0.names.sorted { $0.key < $1.key }.map(\.value) }.filter { seen.insert($0).inserted }
    }

    /// The line an issue of the run adds: the tests running now, or how to have them named.
    static var line: String {
        let names = names
        guard !names.isEmpty else {
            return "  while running:   no test known (only tests with the .confinementChecked trait are listed: "
                + "Swift Testing lists no running test)"
        }
        return "  while running:   " + names.joined(separator: ", ")
    }
}
