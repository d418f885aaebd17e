import Schedulable

/// One test failure: the violations of one object from one wrong context (one bug), with how they
/// reached the test. Both frameworks record held violations through it, so that a wrong call that
/// goes on to touch three members is one failure, located where the first violation's failure site
/// is, and listing every access in order.
struct GroupedFailure {
    /// The violations of one object from one context, in the order they were reported.
    var group: ConfinementViolationGroup
    /// Whether any of them was detected off the test's own thread or task.
    var detectedElsewhere: Bool

    /// The failures `held` makes, in the order of each group's first violation.
    ///
    /// - Parameter held: Each violation with whether it was detected off the test's thread or task.
    /// - Returns: One failure per group.
    static func grouping(_ held: [(violation: ConfinementViolation, elsewhere: Bool)]) -> [GroupedFailure] {
        var failures: [GroupedFailure] = []
        var indexByKey: [ConfinementViolationGroup.Key: Int] = [:]
        for (violation, elsewhere) in held {
            // On the test's own task (or thread) the context is the test, whichever thread an async
            // test resumed on after an `await`.
            let key = violation.groupKey.map { key in
                var key = key
                if !elsewhere { key.actualContext = "the test" }
                return key
            }
            if let key, let index = indexByKey[key] {
                failures[index].group.append(violation)
                failures[index].detectedElsewhere = failures[index].detectedElsewhere || elsewhere
                continue
            }
            if let key { indexByKey[key] = failures.count }
            failures.append(GroupedFailure(group: ConfinementViolationGroup(violation), detectedElsewhere: elsewhere))
        }
        return failures
    }

    /// The failure's text: the group's report, then how it reached the test when that matters.
    ///
    /// - Parameter elsewhere: What to say when a violation was detected off the test's thread or task;
    ///   `nil`: nothing.
    /// - Returns: The text.
    func description(detectedElsewhere elsewhere: String?) -> String {
        guard detectedElsewhere, let elsewhere else { return group.description }
        return group.description + "\n  detected:        " + elsewhere
    }

    /// Where the failure points: the first violation's (see ``ViolationIssueLocation``).
    var location: ViolationIssueLocation? { ViolationIssueLocation(group.first) }
}
