extension Proposer {
    /// The methods of a type that are entry points, and its instances without their guards' steps.
    ///
    /// A method's guard is recorded under the method's name (`receive(_:)`), a stored member's use under
    /// the member's (`received`). A method whose guard only ever ran in contexts where no stored member
    /// of the type was used, while its members were used elsewhere, is an entry point: its body hops
    /// (`queue.sync { … }`), so the guard runs outside the owner and the members inside. Its guard's
    /// steps say where callers are, not where the object lives, so the verdict is judged without them,
    /// and `apply` removes that guard.
    static func entryPoints(of type: MergedType) -> (points: [Proposal.Use], instances: [MergedType.Instance]) {
        func isMethod(_ member: String) -> Bool { member.contains("(") && !transferMembers.contains(member) }
        let steps = type.instances.flatMap(\.steps)
        let storedContexts = Set((steps + type.memberUses).filter { !isMethod($0.member) }.map(\.context))
        guard !storedContexts.isEmpty else { return ([], type.instances) }
        let methods = (steps + type.memberUses).filter { isMethod($0.member) }
        let outside = Set(methods.map(\.member)).filter { member in
            methods.allSatisfy { $0.member != member || !storedContexts.contains($0.context) }
        }
        guard !outside.isEmpty else { return ([], type.instances) }
        let points = methods.filter { outside.contains($0.member) }.uniqued { $0.member }
            .map { Proposal.Use(context: $0.context, member: $0.member, site: $0.site) }
        let instances = type.instances.map { instance in
            var kept = instance
            kept.steps.removeAll { outside.contains($0.member) }
            return kept
        }
        return (points, instances)
    }

    /// The evidence line of an entry point.
    static func entryPointEvidence(_ point: Proposal.Use) -> String {
        "entry point '\(point.member)': its guard runs on \(point.context.description) at \(site(point.site)), outside the contexts its members are used in (its body hops); judged without it, and 'apply' removes that guard"
    }
}
