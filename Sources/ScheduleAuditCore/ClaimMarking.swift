/// What an observed run says about a class's claim that its instances are used safely.
enum ClaimMarking: Equatable, Sendable {
    /// Every observed instance stayed in one context, or was handed on and never went back.
    case held(String)
    /// An instance went back to an earlier context, or was used from a pool thread or several tasks.
    case contradicted(String)
    /// The files do not show the type used.
    case unexercised(String)

    var label: String {
        switch self {
        case .held: "held"
        case .contradicted: "contradicted"
        case .unexercised: "unexercised"
        }
    }

    var evidence: String {
        switch self {
        case .held(let text), .contradicted(let text), .unexercised(let text): text
        }
    }

    /// Marks the class named `typeName` (qualified; an entry matches by that or by its simple name)
    /// from the observation files. Each instance lives in one process, so each file's instances are
    /// judged with that file's contexts.
    static func mark(typeName: String, simpleName: String, in files: [ObservationFile]) -> Self {
        var instances = 0
        var contexts: Set<String> = []
        var handOff: String?
        for file in files {
            for entry in file.types where entry.type == typeName || entry.type == simpleName {
                if let contradiction = poolUse(in: entry, file: file) { return .contradicted(contradiction) }
                for instance in entry.instanceSteps where !instance.steps.isEmpty {
                    instances += 1
                    var steps = instance.steps
                    if entry.record.kind == "declared", let owner = entry.record.owner {
                        // A declared record's steps are the misses; the owner comes first.
                        steps.insert(ObservationFile.Step(context: owner, member: nil, site: entry.record.boundAt), at: 0)
                    }
                    if let contradiction = contradiction(in: steps, serial: instance.serial, file: file) {
                        return .contradicted(contradiction)
                    }
                    contexts.formUnion(steps.map { file.describe(context: $0.context) })
                    if handOff == nil, steps.count > 1 {
                        let path = steps.map { file.describe(context: $0.context) }.joined(separator: " → ")
                        handOff = "instance #\(instance.serial) handed \(path), first at \(steps[1].site.described)"
                    }
                }
            }
        }
        guard instances > 0 else {
            return .unexercised("'\(typeName)' is not in the observation files; observe it ('adopt \(typeName)'), then run the tests")
        }
        let noun = instances == 1 ? "instance" : "instances"
        if let handOff {
            return .held("hand-offs only over \(instances) \(noun), never back to an earlier context: \(handOff)")
        }
        return .held("\(instances) \(noun), each used by one context (\(contexts.sorted().joined(separator: ", ")))")
    }

    /// The first use of the type's members from a pool thread, kept even for instances whose steps were
    /// dropped (members list every context).
    private static func poolUse(in entry: ObservationFile.ObservedType, file: ObservationFile) -> String? {
        for member in entry.members {
            guard let pool = member.contexts.first(where: { file.kind(of: $0.context) == "pool" }) else { continue }
            let other = member.contexts.first { $0.context != pool.context }
            let also = other.map { "; also used from \(file.describe(context: $0.context)) at \($0.site.described)" } ?? ""
            return "'\(member.member)' used from \(file.describe(context: pool.context)) at \(pool.site.described), which is never an owner\(also) [\(file.path)]"
        }
        return nil
    }

    /// The first step of an instance that returns to an earlier context, or its second task.
    private static func contradiction(in steps: [ObservationFile.Step], serial: Int, file: ObservationFile) -> String? {
        var firstTask: ObservationFile.Step?
        for (index, step) in steps.enumerated() {
            if file.kind(of: step.context) == "pool" {
                return "instance #\(serial) used from \(file.describe(context: step.context)) at \(step.site.described), which is never an owner [\(file.path)]"
            }
            if file.kind(of: step.context) == "task" {
                if let first = firstTask, first.context != step.context {
                    return "instance #\(serial) used from several tasks: \(file.describe(context: first.context)) at \(first.site.described), then \(file.describe(context: step.context)) at \(step.site.described) [\(file.path)]"
                }
                firstTask = firstTask ?? step
            }
            // Consecutive steps are in different contexts, so an earlier step in this context means
            // the instance came back: the two contexts interleaved.
            if let earlier = steps[..<index].first(where: { $0.context == step.context }), index > 0 {
                let left = steps[index - 1]
                return "instance #\(serial) returned to \(file.describe(context: step.context)) at \(step.site.described) after \(file.describe(context: left.context)) at \(left.site.described); it was first there at \(earlier.site.described) [\(file.path)]"
            }
        }
        return nil
    }
}
