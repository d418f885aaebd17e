#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Observation {
    /// The observation file (format `schedulable-observations`, version 2): the store's types as JSON,
    /// contexts numbered in the order they first appear. The Adopting in an Existing Codebase article
    /// documents every field; the audit tool's reader checks `format` and `version`.
    struct File {
        var types: [Store.TypeEntry]

        /// Numbers contexts as the file names them: per process, in order of first appearance.
        private struct ContextTable {
            var ids: [Context: Int] = [:]
            var ordered: [Context] = []

            mutating func id(of context: Context) -> Int {
                if let id = ids[context] { return id }
                ordered.append(context)
                ids[context] = ordered.count
                return ordered.count
            }
        }

        var json: String {
            var contexts = ContextTable()
            let typeObjects = types.map { type(json: $0, contexts: &contexts) }
            let process = JSON.object([
                ("pid", String(getpid())),
                ("executable", JSON.string(CommandLine.arguments.first.map(CallStack.fileName(of:)) ?? "process")),
            ])
            let limits = JSON.object([
                ("instancesPerType", String(Store.instancesPerType)),
                ("stepsPerInstance", String(Store.stepsPerInstance)),
                ("contextsPerMember", String(Store.contextsPerMember)),
            ])
            let contextObjects = contexts.ordered.map { context in
                JSON.object([
                    ("id", String(contexts.ids[context]!)), ("kind", JSON.string(context.kind.rawValue)),
                    ("label", JSON.string(context.label)),
                ])
            }
            return JSON.object([
                ("format", JSON.string("schedulable-observations")),
                ("version", String(ConfinementObservations.formatVersion)),
                // How a use was placed: in the innermost serial context the thread holds (the queue whose
                // `sync` it runs), so a reader can trust that such a use would have been a step of its own.
                ("resolution", JSON.string("innermost-serial")),
                ("process", process),
                ("limits", limits),
                ("contexts", Self.array(contextObjects)),
                ("types", Self.array(typeObjects)),
            ]) + "\n"
        }

        private func type(json entry: Store.TypeEntry, contexts: inout ContextTable) -> String {
            var record: [(String, String)]
            if let owner = entry.declaredOwner {
                record = [("kind", JSON.string("declared")), ("owner", String(contexts.id(of: owner)))]
                if let declaredAt = entry.declaredAt { record.append(("boundAt", Self.location(declaredAt))) }
            } else {
                record = [("kind", JSON.string("observed"))]
                if let observedAt = entry.observedAt { record.append(("createdAt", Self.location(observedAt))) }
            }
            let instances = entry.order.compactMap { entry.instances[$0] }
            let instanceObjects = instances.map { instance in
                JSON.object([
                    ("serial", String(instance.serial)),
                    ("steps", Self.array(instance.steps.map { step in
                        JSON.object([
                            ("context", String(contexts.id(of: step.context))),
                            ("member", JSON.string(step.step.member)),
                            ("site", step.step.site.json),
                        ] + step.step.optionalFields(of: entry.name))
                    })),
                    ("stepsDropped", String(instance.stepsDropped)),
                ])
            }
            let memberObjects = entry.members.sorted { $0.key < $1.key }.map { member, uses in
                let sorted = uses.map { (id: contexts.id(of: $0.context), use: $0) }.sorted { $0.id < $1.id }
                return JSON.object([
                    ("member", JSON.string(member)),
                    ("contexts", Self.array(sorted.map {
                        JSON.object([("context", String($0.id)), ("site", $0.use.step.site.json)])
                    })),
                    ("contextsDropped", String(entry.contextsDropped[member] ?? 0)),
                ])
            }
            var fields = [("type", JSON.string(entry.name))]
            if let module = entry.module { fields.append(("module", JSON.string(module))) }
            fields += [
                ("record", JSON.object(record)),
                ("instances", JSON.object([
                    ("kept", String(instances.count)), ("droppedSteps", String(entry.droppedSteps)),
                ])),
                ("members", Self.array(memberObjects)),
                ("instanceSteps", Self.array(instanceObjects)),
            ]
            return JSON.object(fields)
        }

        /// A location in the package's one shape, `{"fileID", "line"}` (version 1 spelt it `file`).
        static func location(_ location: CodeLocation) -> String {
            ConfinementViolation.FieldValue.location(location).json
        }

        private static func array(_ elements: [String]) -> String {
            "[" + elements.joined(separator: ",") + "]"
        }
    }
}

extension Observation.Step {
    /// The step's optional fields, each only when known: `letGo` (a site: where the previous context
    /// let go), `work` (`{"scheduledAt"?: {"fileID", "line"}, "function"?}`, the library work item the new
    /// user ran) and `taskName`.
    /// `typeName` is the instance's type: `letGo` is the first frame outside its own code.
    func optionalFields(of typeName: String) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let letGo { fields.append(("letGo", letGo.letGoJSON(outside: typeName))) }
        guard let work else { return fields }
        var item: [(String, String)] = []
        if let scheduledAt = work.scheduledAt { item.append(("scheduledAt", Observation.File.location(scheduledAt))) }
        if let function = work.function { item.append(("function", JSON.string(function))) }
        if !item.isEmpty { fields.append(("work", JSON.object(item))) }
        if let taskName = work.taskName { fields.append(("taskName", JSON.string(taskName))) }
        return fields
    }
}
