import Schedulable

/// A violation a test scope holds until it records its failures.
package struct HeldViolation: Sendable {
    /// What happened.
    package var violation: ConfinementViolation
    /// Whether it was detected off the test's own thread or task.
    package var elsewhere: Bool
    /// Where the access ran relative to the Swift Testing test's task tree; `nil` under XCTest or
    /// when the violation has no intruder side.
    package var intruderTree: IntruderTestTree?

    init(_ violation: ConfinementViolation, elsewhere: Bool, intruderTree: IntruderTestTree? = nil) {
        self.violation = violation
        self.elsewhere = elsewhere
        self.intruderTree = intruderTree
    }
}

/// One test failure: the violations of one object from one wrong context (one bug), with how they
/// reached the test. Both frameworks record held violations through it, so that a wrong call that
/// goes on to touch three members is one failure, located where the first violation's failure site
/// is, and listing every access in order.
struct GroupedFailure {
    /// The violations of one object from one context, in the order they were reported.
    var group: ConfinementViolationGroup
    /// Whether any of them was detected off the test's own thread or task.
    var detectedElsewhere: Bool
    /// Where the first of them ran relative to the test's task tree (Swift Testing), if known.
    var intruderTree: IntruderTestTree?

    /// The failures `held` makes, in the order of each group's first violation.
    ///
    /// - Parameter held: Each violation with whether it was detected off the test's thread or task.
    /// - Returns: One failure per group.
    static func grouping(_ held: [HeldViolation]) -> [GroupedFailure] {
        var failures: [GroupedFailure] = []
        var indexByKey: [ConfinementViolationGroup.Key: Int] = [:]
        for item in held {
            let (violation, elsewhere, tree) = (item.violation, item.elsewhere, item.intruderTree)
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
            failures.append(GroupedFailure(
                group: ConfinementViolationGroup(violation), detectedElsewhere: elsewhere, intruderTree: tree
            ))
        }
        return failures
    }

    /// The failure's text: the group's report, where its first access ran relative to the test's task
    /// tree (Swift Testing), then how it reached the test when that matters.
    ///
    /// - Parameter elsewhere: What to say when a violation was detected off the test's thread or task;
    ///   `nil`: nothing.
    /// - Returns: The text.
    func description(detectedElsewhere elsewhere: String?) -> String {
        let report = IntruderTestTree.appending(intruderTree, to: group.description)
        guard detectedElsewhere, let elsewhere else { return report }
        return report + "\n  detected:        " + elsewhere
    }

    /// Where the failure points: the first violation's (see ``ViolationIssueLocation``).
    var location: ViolationIssueLocation? { ViolationIssueLocation(group.first) }
}
