/// Turns one merged type into one conclusion with its evidence.
///
/// Before the rules, an instance's construction steps (its initializer's, where it was built, before a
/// non-transfer move) and the steps of entry points (``entryPoints(of:)``) are left out.
///
/// The rules, in order: each is one early return of ``judge(_:)``, a `// N.` comment at its line, a
/// `ruleN…` row in `ProposerRuleTests` and an item of ProposingOwners' "The rules, in order"
/// (`.ci/check-rules` holds the three to one numbering). The first that applies decides; moves
/// without a `handOff(to:)` that only some instances make are then listed as stray by every rule
/// from 4 on, and the sample's evidence by every rule.
enum Proposer {
    static func propose(_ observed: Observation.Store.TypeEntry) -> Proposal.Entry {
        var type = observed
        let entryPoints = type.recordKind == "declared" ? (points: [], instances: observed.instances) : Self.entryPoints(of: observed)
        if !entryPoints.points.isEmpty {
            type.instances = entryPoints.instances
            type.memberUses.removeAll { use in entryPoints.points.contains { $0.member == use.member } }
        }
        var entry = judge(type)
        if !entryPoints.points.isEmpty {
            entry.entryPoints = entryPoints.points
            entry.evidence += entryPoints.points.map(entryPointEvidence)
        }
        return entry
    }

    private static func judge(_ type: Observation.Store.TypeEntry) -> Proposal.Entry {
        let kept = type.instances.map(withoutConstruction).filter { !$0.steps.isEmpty }
        let cut = kept.filter { $0.stepsDropped > 0 }.count
        var entry = Proposal.Entry(
            type: type.type, module: type.module, conclusion: .insufficient, record: type.recordKind,
            createdAt: type.createdAt, boundAt: type.boundAt, owner: nil,
            instances: .init(seen: type.seen, dropped: type.dropped, droppedSteps: type.droppedSteps, cut: cut),
            sampled: type.dropped > 0 || type.droppedSteps > 0 || cut > 0 || type.contextsDropped > 0, evidence: []
        )
        let sample = sampleEvidence(type, keptCount: kept.count, cut: cut)

        // 1. A declared owner: `contradicted` with each miss, `insufficient` without one.
        if type.recordKind == "declared" {
            decideDeclared(type, &entry)
            entry.evidence += sample
            return entry
        }
        // 2. No kept instance has a step: nothing to judge.
        guard !kept.isEmpty else {
            entry.evidence = ["no kept instance has a step: nothing to judge"] + sample
            return entry
        }
        // 3. A pool use, a return to a context left (not by `handOff(to:)`), two tasks: `not-confinable`.
        let visits = kept.map(Self.visits)
        if let conflict = firstConflict(visits, memberUses: type.memberUses) {
            entry.conclusion = .notConfinable
            entry.uses = [conflict.first, conflict.second].map(use)
            entry.evidence = [conflict.reason, "a bug, or state that a lock guards"] + sample
            return entry
        }
        let shown = Set(visits.flatMap { $0.map(\.context) })
        let unseen = type.memberUses.filter { !shown.contains($0.context) && $0.site?.function.map(isInitializer) != true }
        let starts = Set(visits.map { $0[0].context })
        let count = "\(kept.count) \(kept.count == 1 ? "instance" : "instances")"
        let moves = visits.flatMap { path in zip(path, path.dropFirst()).map { Move(from: $0, to: $1) } }
        let movers = visits.filter { $0.count > 1 }.count
        // A move is a hand-off when the code says so (an explicit `handOff(to:)`, which a fixed owner
        // would refuse), or when every instance makes one. Moves without a `handOff(to:)` that only some
        // instances make are stray: proposing a hand-off there would legitimise what may be a bug, so
        // the owner is where instances start and the fixed owner's checks will report those uses.
        let handsOff = moves.contains(where: \.isExplicit) || (movers > 0 && movers == visits.count)
        let stray = movers == visits.count ? [] : moves.filter { !$0.isExplicit }
        func decided(_ entry: Proposal.Entry) -> Proposal.Entry {
            var entry = entry
            if entry.conclusion != .notConfinable && entry.conclusion != .insufficient && !stray.isEmpty {
                entry.strayMoves = stray.map(\.handOff).uniqued { "\($0.from.label)\u{0}\($0.to.label)" }
                entry.evidence += entry.strayMoves.map {
                    "then used from \($0.to.description) at \(site($0.site)) without a handOff(to:), by \(movers) of \(kept.count) instances: a bug, or a hand-off to write there (then make the record transferable)"
                }
            }
            entry.evidence += sample
            return entry
        }

        // 4. No hand-off, instances start in different contexts: `first-user` (each its own owner,
        //    whatever a member's use beyond the sample shows).
        if !handsOff && starts.count > 1 {
            entry.conclusion = .firstUser
            entry.uses = visits.map { use($0[0]) }.uniqued(by: \.context)
            entry.evidence = ["\(count), each first used in one context, \(starts.count) contexts in all: Confinement.detached()"]
            return decided(entry)
        }
        // 5. A member used from a context no kept instance shows: the sample cannot speak for it.
        if let stray = unseen.first {
            entry.evidence = [
                "the kept instances say \(handsOff ? "hand-off" : "one owner"), but '\(stray.member)' was also used from \(stray.context.description) at \(site(stray.site)), by an instance whose steps were not kept; raise the limits or observe fewer instances",
            ]
            return decided(entry)
        }
        // 6. No hand-off, one start: `main`, `owner`, or `first-user` for a task (no owner one can name).
        if !handsOff, let only = starts.first {
            entry.owner = only.kind == .task ? nil : only
            entry.conclusion = only.kind == .main ? .main : only.kind == .task ? .firstUser : .owner
            entry.uses = [use(visits[0][0])]
            entry.evidence = ["\(count), \(stray.isEmpty ? "every use" : "each first used") on \(only.description)"]
            if only.kind == .main { entry.evidence.append("this type could be @MainActor") }
            if only.kind == .task { entry.evidence.append("a task is no scheduler: each instance is bound by its first use") }
            return decided(entry)
        }
        // 7. Moves forward, never back: `hand-off` (to a task or a plain thread, `not-confinable`).
        decideHandOff(visits, moves: moves.filter { !stray.contains($0) }, count: count, &entry)
        return decided(entry)
    }

    /// The instance without the steps its construction made where it was built, when its first use
    /// after them is elsewhere and not an explicit transfer: construction is not a use (an object built
    /// on the caller's thread, then used only in one queue's work, is that queue's), as the checks treat
    /// it.
    static func withoutConstruction(_ instance: Observation.Store.Instance) -> Observation.Store.Instance {
        let building = instance.steps.prefix { step in
            step.context == instance.steps[0].context && step.site?.function.map(isInitializer) == true
        }
        guard !building.isEmpty, building.count < instance.steps.count,
            !transferMembers.contains(instance.steps[building.count].member),
            instance.steps[building.count].context != instance.steps[0].context
        else { return instance }
        var trimmed = instance
        trimmed.steps.removeFirst(building.count)
        return trimmed
    }

    /// Whether a site's function is an initializer (`init(name:)`, `App.Job.init(name:)`).
    private static func isInitializer(_ function: String) -> Bool {
        function.hasPrefix("init(") || function.hasSubstring(".init(") || function.hasSubstring("__allocating_init")
    }

    /// An instance's steps as the run of contexts it visited, each with the step that entered it.
    static func visits(_ instance: Observation.Store.Instance) -> [Observation.Store.Use] {
        var visits: [Observation.Store.Use] = []
        for step in instance.steps where visits.last?.context != step.context {
            visits.append(step)
        }
        return visits
    }

    private static func decideDeclared(_ type: Observation.Store.TypeEntry, _ entry: inout Proposal.Entry) {
        entry.owner = type.declaredOwner
        let steps = type.instances.flatMap(\.steps)
        let misses = (type.memberUses + steps).uniqued { "\($0.context.kind)\u{0}\($0.context.label)\u{0}\($0.member)" }
        let owner = type.declaredOwner?.description ?? "its owner"
        let bound = type.boundAt.map { " (bound at \($0.file):\($0.line))" } ?? ""
        guard !misses.isEmpty else {
            entry.evidence = ["declared owner \(owner)\(bound); no miss was recorded"]
            return
        }
        entry.conclusion = .contradicted
        entry.uses = misses.map(use)
        entry.evidence = ["declared owner \(owner)\(bound), but used from elsewhere; what the checks would have reported:"]
            + misses.map { "'\($0.member)' from \($0.context.description) at \(site($0.site))" }
    }

    /// One change of context in an instance's steps.
    private struct Move: Equatable {
        var from: Observation.Store.Use
        var to: Observation.Store.Use

        /// Whether the code made it (`handOff(to:)`), rather than a use from the new context.
        var isExplicit: Bool { transferMembers.contains(to.member) }

        var handOff: Proposal.HandOff {
            Proposal.HandOff(from: from.context, to: to.context, member: to.member, site: to.site)
        }
    }

    private static func decideHandOff(_ visits: [[Observation.Store.Use]], moves all: [Move], count: String, _ entry: inout Proposal.Entry) {
        let moves = all.uniqued { "\($0.from.context.kind)\u{0}\($0.from.context.label)\u{0}\($0.to.context.kind)\u{0}\($0.to.context.label)" }
        if let unnamed = moves.first(where: { $0.to.context.kind == .task || $0.to.context.kind == .thread }) {
            entry.conclusion = .notConfinable
            entry.uses = [use(unnamed.from), use(unnamed.to)]
            entry.evidence = [
                "moves from \(unnamed.from.context.description) at \(site(unnamed.from.site)) to \(unnamed.to.context.description) at \(site(unnamed.to.site)), which no handOff(to:) can name; hand it to a scheduler instead, or guard it with a lock",
            ]
            return
        }
        var handOffs = moves.map(\.handOff)
        // A move no `handOff(to:)` made gets one where every instance making it let go.
        let letGos = moves.map { move in
            all.filter { !$0.isExplicit && $0.from.context == move.from.context && $0.to.context == move.to.context }.map(\.to.letGo)
        }
        for index in handOffs.indices where !moves[index].isExplicit {
            (handOffs[index].letGo, handOffs[index].unplaced) = placement(of: letGos[index])
        }
        entry.conclusion = .handOff
        entry.handOffs = handOffs
        let starts = Set(visits.map { $0[0].context })
        if starts.count == 1, let start = starts.first, start.kind != .task, start.kind != .thread {
            entry.owner = start
            entry.evidence = ["\(count) created on \(start.description) and handed forward, never back: Confinement.transferable(owner:)"]
        } else {
            entry.evidence = ["\(count) start in \(starts.count) contexts and move forward, never back: Confinement.detached(), then hand-offs"]
        }
        for handOff in handOffs {
            entry.evidence.append("\(handOff.from.description) → \(handOff.to.description) at \(site(handOff.site))")
            if let placed = placementEvidence(handOff) { entry.evidence.append(placed) }
        }
    }

    private struct Conflict {
        var first: Observation.Store.Use
        var second: Observation.Store.Use
        var reason: String
    }

    /// The first pool use, return or second task, in instance order.
    private static func firstConflict(_ visits: [[Observation.Store.Use]], memberUses: [Observation.Store.Use]) -> Conflict? {
        for path in visits {
            if let pool = path.first(where: { $0.context.kind == .pool }) {
                return poolConflict(pool, other: path.first { $0.context.kind != .pool })
            }
            // A return made by an explicit transfer (`handOff(to:)` back) is a hand-off, not sharing.
            for (index, visit) in path.enumerated() where !transferMembers.contains(visit.member) {
                if let earlier = path[..<index].lastIndex(where: { $0.context == visit.context }) {
                    let left = path[earlier + 1]
                    return Conflict(first: left, second: visit, reason: "returns to \(visit.context.description) at \(site(visit.site)) after \(left.context.description) at \(site(left.site)): used from both, interleaved")
                }
            }
            let tasks = path.filter { $0.context.kind == .task }
            if tasks.count > 1 {
                return Conflict(first: tasks[0], second: tasks[1], reason: "used from \(tasks[0].context.description) at \(site(tasks[0].site)) and \(tasks[1].context.description) at \(site(tasks[1].site)), interleaved tasks")
            }
        }
        // A pool use that only the members lists show (an instance whose steps were not kept).
        if let pool = memberUses.first(where: { $0.context.kind == .pool }) {
            return poolConflict(pool, other: memberUses.first { $0.context.kind != .pool })
        }
        return nil
    }

    private static func poolConflict(_ pool: Observation.Store.Use, other: Observation.Store.Use?) -> Conflict {
        let used = "'\(pool.member)' used from \(pool.context.description) at \(site(pool.site)), a concurrent pool that owns nothing"
        guard let other else {
            return Conflict(first: pool, second: pool, reason: used)
        }
        return Conflict(first: other, second: pool, reason: "\(used); also from \(other.context.description) at \(site(other.site))")
    }

    /// The members whose step is an explicit transfer, recorded in the new owner's context at its call.
    static let transferMembers: Set<String> = ["handOff(to:)", "detach()"]

    private static func sampleEvidence(_ type: Observation.Store.TypeEntry, keptCount: Int, cut: Int) -> [String] {
        var lines: [String] = []
        if type.specializations.count > 1 {
            lines.append("\(type.specializations.count) specializations merged (\(type.specializations.joined(separator: ", "))): they share one record")
        } else if let only = type.specializations.first {
            lines.append("1 specialization observed (\(only))")
        }
        if type.dropped > 0 {
            lines.append("a sample: steps kept for \(keptCount) of \(type.seen) instances (\(type.dropped) beyond the instancesPerType limit)")
        }
        if type.droppedSteps > 0 {
            lines.append("a sample: \(type.droppedSteps) \(type.droppedSteps == 1 ? "step" : "steps") of instances beyond the instancesPerType limit counted, not kept")
        }
        if cut > 0 {
            lines.append("\(cut) \(cut == 1 ? "instance has" : "instances have") more steps than stepsPerInstance: a later return is not ruled out")
        }
        if type.contextsDropped > 0 {
            lines.append("\(type.contextsDropped) member contexts beyond contextsPerMember were not kept")
        }
        return lines
    }

    static func site(_ site: Observation.Site?) -> String {
        site?.description ?? "an unknown site (no user frame)"
    }

    private static func use(_ use: Observation.Store.Use) -> Proposal.Use {
        Proposal.Use(context: use.context, member: use.member, site: use.site)
    }
}

extension Array {
    /// The elements whose key was not seen before, in order.
    func uniqued<Key: Hashable>(by key: (Element) -> Key) -> [Element] {
        var seen = Set<Key>()
        return filter { seen.insert(key($0)).inserted }
    }
}
