extension Proposer {
    /// The methods of a type that are entry points, and its instances without their guards' steps.
    ///
    /// A method's guard is recorded under the method's name (`receive(_:)`), a stored member's use under
    /// the member's (`received`), at a site whose function is where it ran. A method is an entry point
    /// when its guard only ever ran in contexts where no stored member of the type was used, and stored
    /// members were used in a closure of that method elsewhere (`closure #1 in Downloader.receive(_:)`):
    /// its body hops (`queue.sync { … }`), so the guard runs outside the owner and the members inside.
    /// Its guard's steps say where callers are, not where the object lives, so the conclusion is judged
    /// without them, and `apply` removes that guard. A method that merely ran before a hand-off is not
    /// one: no closure of it touched the members.
    static func entryPoints(of type: Observation.Store.TypeEntry) -> (points: [Proposal.Use], instances: [Observation.Store.Instance]) {
        func isMethod(_ member: String) -> Bool { member.contains(Character("(")) && !transferMembers.contains(member) }
        let steps = type.instances.flatMap(\.steps)
        let storedContexts = Set((steps + type.memberUses).filter { !isMethod($0.member) }.map(\.context))
        guard !storedContexts.isEmpty else { return ([], type.instances) }
        let methods = (steps + type.memberUses).filter { isMethod($0.member) }
        let storedSites = (steps + type.memberUses).filter { !isMethod($0.member) }.compactMap(\.site?.function)
        let outside = Set(methods.map(\.member)).filter { member in
            methods.allSatisfy { $0.member != member || !storedContexts.contains($0.context) }
                && storedSites.contains { $0.hasPrefix("closure") && ($0.hasSuffix(".\(member)") || $0.hasSuffix(" \(member)")) }
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
